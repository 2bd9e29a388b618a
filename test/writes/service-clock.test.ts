/**
 * A lead created after a send may carry a createdAt before it when the service's clock is behind ours: the node
 * reads how far behind from the answers' Date headers, and of several readings trusts the one furthest behind.
 */
import { CLOCK_MARGIN_MS, ServiceClock, UNMEASURED_CLOCK_ALLOWANCE_MS } from '../../nodes/Prospecting/actions/lead/serviceClock';

const sentAt = Date.parse('2026-11-27T12:00:00Z');

describe('the service clock of one create', () => {
	it('without a Date header to go by, allows a lead stamped up to the unmeasured allowance before the send', () => {
		expect(new ServiceClock().earliestCreatedAt(sentAt)).toBe(sentAt - UNMEASURED_CLOCK_ALLOWANCE_MS);
	});

	it('of several readings, keeps the one furthest behind, whichever came first', () => {
		for (const readings of [[-5000, -2000, 3000], [3000, -2000, -5000]]) {
			const clock = new ServiceClock();
			for (const offset of readings) clock.observe(offset);
			expect(clock.earliestCreatedAt(sentAt)).toBe(sentAt - 5000 - CLOCK_MARGIN_MS);
		}
	});

	it('a service ahead of ours moves the earliest time later, by its offset less the margin', () => {
		const clock = new ServiceClock();
		clock.observe(600_000);
		expect(clock.earliestCreatedAt(sentAt)).toBe(sentAt + 600_000 - CLOCK_MARGIN_MS);
	});

	it('ignores a reading that is not a number (a Date header it could not read)', () => {
		const clock = new ServiceClock();
		clock.observe(Number.NaN);
		expect(clock.earliestCreatedAt(sentAt)).toBe(sentAt - UNMEASURED_CLOCK_ALLOWANCE_MS);
		clock.observe(-3000);
		clock.observe(Number.NaN);
		expect(clock.earliestCreatedAt(sentAt)).toBe(sentAt - 3000 - CLOCK_MARGIN_MS);
	});
});
