/**
 * Contacts whose create ended "may exist" are held for one more lost-lead window (Skip If Exists then ends "may
 * exist" too) and remembered an hour for n8n's Retry On Fail; then they are forgotten.
 */
import { earlierSendOf, markUnresolved, unresolvedOf } from '../../nodes/Prospecting/actions/lead/unresolved';

const HOUR_MS = 60 * 60 * 1000;
const entry = { sentAt: 1, earliestCreatedAt: 1 };

afterEach(() => jest.restoreAllMocks());

function at(ms: number): void {
	jest.spyOn(Date, 'now').mockReturnValue(ms);
}

describe('a contact whose create may exist', () => {
	it('is unresolved for its window, then remembered for Retry On Fail until an hour after it was marked, then forgotten', () => {
		const T = Date.parse('2026-11-27T10:00:00Z');
		at(T);
		markUnresolved(['email:ana@example.com'], entry, 180_000);
		at(T + 179_999);
		expect(unresolvedOf(['email:ana@example.com'])).toMatchObject(entry);
		at(T + 180_000);
		expect(unresolvedOf(['email:ana@example.com'])).toBeUndefined();
		expect(earlierSendOf(['email:ana@example.com'])).toMatchObject(entry);
		at(T + HOUR_MS - 1);
		expect(earlierSendOf(['email:ana@example.com'])).toMatchObject(entry);
		at(T + HOUR_MS);
		expect(earlierSendOf(['email:ana@example.com'])).toBeUndefined();
		// Forgotten for good: a read after the hour does not bring it back.
		at(T);
		expect(earlierSendOf(['email:ana@example.com'])).toBeUndefined();
	});

	it('is found by any one of its contacts, the first that is held', () => {
		const T = Date.parse('2026-11-27T11:00:00Z');
		at(T);
		markUnresolved(['phone:5511', 'email:bia@example.com'], { sentAt: 2, earliestCreatedAt: 2 }, 1000);
		expect(unresolvedOf(['email:outro@example.com', 'phone:5511'])).toMatchObject({ sentAt: 2 });
		expect(unresolvedOf(['email:outro@example.com'])).toBeUndefined();
	});
});
