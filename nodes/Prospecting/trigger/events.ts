import { EVENT_KIND_RULE, isEventKind } from '../shared/eventKinds';

export class EventListError extends Error {}

/**
 * The event kinds to subscribe to: the selected known kinds plus the comma- or newline-separated
 * other kinds, trimmed, without duplicates, sorted so the same choice always compares equal.
 */
export function subscribedEvents(selected: unknown, other: unknown): string[] {
	const chosen = Array.isArray(selected) ? selected : [];
	const typed = typeof other === 'string' ? other.split(/[,\n]/) : [];
	const events = new Set<string>();
	for (const value of [...chosen, ...typed]) {
		if (typeof value !== 'string') {
			throw new EventListError(`Event kinds must be text, got ${typeof value}`);
		}
		const event = value.trim();
		if (event === '') continue;
		if (!isEventKind(event)) {
			throw new EventListError(`"${event.slice(0, 100)}" is not an event kind: ${EVENT_KIND_RULE}`);
		}
		events.add(event);
	}
	if (events.size === 0) {
		throw new EventListError('Choose at least one event in "Events" or "Other Events"');
	}
	return [...events].sort();
}

/** Whether two subscriptions hold the same event kinds, in any order. */
export function sameEvents(left: unknown, right: readonly string[]): boolean {
	if (!Array.isArray(left)) return false;
	const a = new Set(left.filter((event): event is string => typeof event === 'string'));
	const b = new Set(right);
	if (a.size !== b.size) return false;
	return [...b].every((event) => a.has(event));
}
