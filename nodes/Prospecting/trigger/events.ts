/** Event kinds the spec names. Others are typed by the user in "Other Events". */
export const KNOWN_EVENTS = ['prospection.won', 'prospection.lost'] as const;

/** Event kinds are dotted names; this keeps stray spaces, quotes or separators out of the subscription. */
const EVENT_KIND = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,99}$/;

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
		if (!EVENT_KIND.test(event)) {
			throw new EventListError(
				`"${event.slice(0, 100)}" is not an event kind: use letters, digits, dots, dashes, underscores or colons, e.g. prospection.won`,
			);
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
