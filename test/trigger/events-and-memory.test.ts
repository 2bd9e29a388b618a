/** The event list a user builds, and the bounded memory of delivered event ids. */
import type { IDataObject } from 'n8n-workflow';

import { isRepeatedDelivery, REMEMBERED_DELIVERY_IDS } from '../../nodes/Prospecting/trigger/deliveryMemory';
import { sameEvents, subscribedEvents } from '../../nodes/Prospecting/trigger/events';

describe('subscribedEvents', () => {
	it('joins selected and typed kinds, trimmed, without duplicates, sorted', () => {
		expect(
			subscribedEvents(['prospection.won', 'prospection.lost'], ' lead.created ,\nprospection.won,, '),
		).toEqual(['lead.created', 'prospection.lost', 'prospection.won']);
	});

	it('refuses an empty choice, naming both fields', () => {
		expect(() => subscribedEvents([], '  , ')).toThrow('Choose at least one event in "Events" or "Other Events"');
	});

	it.each(['lead created', 'a/b', '"x"', '.hidden', 'x'.repeat(101)])('refuses the kind %p', (kind) => {
		expect(() => subscribedEvents([], kind)).toThrow('is not an event kind');
	});

	it('refuses non-text values from expressions', () => {
		expect(() => subscribedEvents([42], '')).toThrow('Event kinds must be text');
	});
});

describe('sameEvents', () => {
	it('compares as sets', () => {
		expect(sameEvents(['prospection.lost', 'prospection.won'], ['prospection.won', 'prospection.lost'])).toBe(true);
		expect(sameEvents(['prospection.won'], ['prospection.won', 'prospection.lost'])).toBe(false);
		expect(sameEvents(['prospection.won', 'lead.created'], ['prospection.won', 'prospection.lost'])).toBe(false);
		expect(sameEvents(undefined, ['prospection.won'])).toBe(false);
	});
});

describe('isRepeatedDelivery', () => {
	it('lets an id through once, then reports it as repeated', () => {
		const staticData: IDataObject = {};
		expect(isRepeatedDelivery(staticData, 'scope-a', 'evt-1')).toBe(false);
		expect(isRepeatedDelivery(staticData, 'scope-a', 'evt-1')).toBe(true);
		expect(isRepeatedDelivery(staticData, 'scope-a', 'evt-2')).toBe(false);
		expect(staticData.recentDeliveryIds).toEqual(['evt-1', 'evt-2']);
	});

	it('remembers across a reload of static data (n8n persists it) and within the process', () => {
		const saved: IDataObject = {};
		isRepeatedDelivery(saved, 'scope-b', 'evt-9');
		const reloaded = structuredClone(saved);
		expect(isRepeatedDelivery(reloaded, 'scope-b-other', 'evt-9')).toBe(true);
		// A retry arriving before n8n saved static data: only the in-process memory knows the id.
		expect(isRepeatedDelivery({}, 'scope-b', 'evt-9')).toBe(true);
	});

	it('keeps a bounded number of ids, forgetting the oldest first', () => {
		const staticData: IDataObject = {};
		const total = REMEMBERED_DELIVERY_IDS + 50;
		for (let i = 0; i < total; i++) isRepeatedDelivery(staticData, 'scope-c', `evt-${i}`);
		const kept = staticData.recentDeliveryIds as string[];
		expect(kept).toHaveLength(REMEMBERED_DELIVERY_IDS);
		expect(kept[0]).toBe('evt-50');
		expect(isRepeatedDelivery(staticData, 'scope-c', `evt-${total - 1}`)).toBe(true);
		expect(isRepeatedDelivery({ recentDeliveryIds: [] }, 'scope-fresh', 'evt-0')).toBe(false);
	});
});
