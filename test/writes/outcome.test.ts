/**
 * The outcome a failed write's error carries (notSent, refused, unknown) is what a workflow branches on under
 * Continue On Fail. The node reads it from and writes it to any thrown value, so both ends must hold for values
 * that are not n8n's errors too: a plain Error, a string, nothing at all.
 */
import { outcomeOf, withOutcome } from '../../nodes/Prospecting/helpers/outcome';

describe('the outcome of a failed write', () => {
	it('is none for a thrown value that is not an object or carries no outcome', () => {
		expect(outcomeOf(undefined)).toBeUndefined();
		expect(outcomeOf(null)).toBeUndefined();
		expect(outcomeOf('the service is down')).toBeUndefined();
		expect(outcomeOf(new Error('the service is down'))).toBeUndefined();
		expect(outcomeOf(Object.assign(new Error('no outcome'), { context: {} }))).toBeUndefined();
	});

	it('is only ever one of the three words a workflow can branch on', () => {
		for (const outcome of ['notSent', 'refused', 'unknown'] as const) {
			expect(outcomeOf({ context: { writeOutcome: outcome } })).toBe(outcome);
		}
		expect(outcomeOf({ context: { writeOutcome: 'applied' } })).toBeUndefined();
		expect(outcomeOf({ context: { writeOutcome: 'UNKNOWN' } })).toBeUndefined();
		// Lead Create's own word is another key: it never reads as a write's outcome.
		expect(outcomeOf({ context: { leadOutcome: 'created', outcome: 'unknown' } })).toBeUndefined();
	});

	it('is written on an error that has no context yet, and kept beside what the context holds', () => {
		const plain = withOutcome(new Error('socket hang up'), 'unknown');
		expect(outcomeOf(plain)).toBe('unknown');

		const described = withOutcome(Object.assign(new Error('refused'), { context: { itemIndex: 2 } }), 'refused');
		expect((described as unknown as { context: unknown }).context).toEqual({ itemIndex: 2, writeOutcome: 'refused' });
	});

	it('leaves a thrown value that is not an object as it is, instead of failing on it', () => {
		expect(withOutcome('the service is down', 'notSent')).toBe('the service is down');
		expect(withOutcome(undefined, 'notSent')).toBeUndefined();
		expect(withOutcome(null, 'notSent')).toBeNull();
	});
});
