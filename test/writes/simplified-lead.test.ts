/**
 * Simplify (Lead Create's and Get Many's output) puts the first email, phone and mobile beside the full lists. The
 * engine tests (test/nodes/simplify.test.ts) use the sandbox's leads, whose lists hold only `{ value, label }` items
 * with a value; these hold what else a list can carry: plain text, blank values, items without a value.
 */
import { simplifyLead } from '../../nodes/Prospecting/actions/lead/simplify';

describe('a simplified lead', () => {
	it('shows the first contact that has a value, skipping blank ones and items without a value', () => {
		const lead = {
			id: 7,
			emails: [{ value: '', label: 'work' }, { label: 'home' }, { value: 'ana@example.com', label: 'home' }],
			phones: [null, { value: null }, { value: '+55 11 4000-0000' }],
			mobiles: [{ value: '+55 11 90000-0000' }],
		};
		expect(simplifyLead(lead)).toEqual({
			id: 7,
			email: 'ana@example.com',
			phone: '+55 11 4000-0000',
			mobile: '+55 11 90000-0000',
			emails: lead.emails,
			phones: lead.phones,
			mobiles: lead.mobiles,
		});
	});

	it('shows a contact list of plain text as it is, and nothing for a list of other objects', () => {
		const lead = { id: 8, emails: ['', 'bea@example.com'], phones: [['+55 11 4000-0001']], mobiles: [{ number: '9' }] };
		const simplified = simplifyLead(lead);
		expect(simplified.email).toBe('bea@example.com');
		expect(simplified).not.toHaveProperty('phone');
		expect(simplified).not.toHaveProperty('mobile');
	});

	it('leaves out empty fields and lists, and a contact field that is not a list', () => {
		expect(simplifyLead({ id: 9, name: '', company: null, emails: [], phones: 'not a list', createdAt: undefined })).toEqual({
			id: 9,
			phones: 'not a list',
		});
	});
});
