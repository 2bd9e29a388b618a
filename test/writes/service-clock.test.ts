/**
 * A lead created after a send may carry a createdAt before it when the service's clock is behind ours: the transport
 * learns how far behind from the Date header of every answer of an account, and of its recent readings trusts the
 * closest (each one is at or behind the true offset: the header is truncated, and the answer travels after it).
 */
import { CLOCK_MARGIN_MS, earliestCreatedAt, noteServiceDate, UNMEASURED_CLOCK_ALLOWANCE_MS } from '../../nodes/Prospecting/transport/serviceClock';

const sentAt = Date.parse('2026-11-27T12:00:00Z');
const date = (offsetMs: number, at = sentAt) => ({ Date: new Date(at + offsetMs).toUTCString() });

describe('the service clock of an account', () => {
	it('without a Date header to go by, allows a lead stamped up to the unmeasured allowance before the send', () => {
		noteServiceDate('no-date', {}, sentAt);
		noteServiceDate('no-date', { date: 'not a date' }, sentAt);
		expect(earliestCreatedAt('no-date', sentAt)).toEqual({ at: sentAt - UNMEASURED_CLOCK_ALLOWANCE_MS, measured: false });
	});

	it('of several readings, keeps the closest (the largest), whichever came first, and reads the header in any case', () => {
		for (const [account, offsets] of [['first-close', [-5000, -2000]], ['last-close', [-2000, -5000]]] as const) {
			for (const offset of offsets) noteServiceDate(account, date(offset), sentAt);
			expect(earliestCreatedAt(account, sentAt)).toEqual({ at: sentAt - 2000 - CLOCK_MARGIN_MS, measured: true });
		}
		noteServiceDate('lower-case', { date: new Date(sentAt + 600_000).toUTCString() }, sentAt);
		expect(earliestCreatedAt('lower-case', sentAt).at).toBe(sentAt + 600_000 - CLOCK_MARGIN_MS);
	});

	it('is learnt per account: another account\'s readings say nothing of it', () => {
		noteServiceDate('behind', date(-600_000), sentAt);
		expect(earliestCreatedAt('ahead', sentAt).measured).toBe(false);
	});

	it('forgets readings older than ten minutes before a send: a service\'s clock may have been set since', () => {
		noteServiceDate('set-since', date(-600_000, sentAt - 11 * 60_000), sentAt - 11 * 60_000);
		expect(earliestCreatedAt('set-since', sentAt).measured).toBe(false);
		noteServiceDate('set-since', date(0, sentAt + 5000), sentAt + 5000);
		expect(earliestCreatedAt('set-since', sentAt)).toEqual({ at: sentAt - CLOCK_MARGIN_MS, measured: true });
	});
});
