/**
 * Contacts whose create ended "may exist" in this process: the service may still commit that lead. For one more
 * lost-lead window, Skip If Exists does not create a lead for them when its search finds none; it ends "may
 * exist" too. Private to this process: queue-mode workers do not see each other's entries.
 */

export interface Unresolved {
	/** When the create was sent (our clock). */
	sentAt: number;
	/** The earliest createdAt its lead may carry (the service's clock), for a later search. */
	earliestCreatedAt: number;
	/** Until when the contact stays unresolved. */
	until: number;
}

/** Far more contacts than one process holds in doubt at a time; the oldest go first. */
const MAX_UNRESOLVED = 10_000;

const unresolved = new Map<string, Unresolved>();

function current(key: string, now: number): Unresolved | undefined {
	const entry = unresolved.get(key);
	if (entry && entry.until <= now) {
		unresolved.delete(key);
		return undefined;
	}
	return entry;
}

/** Marks these contact keys unresolved for `windowMs` from now. */
export function markUnresolved(keys: string[], entry: Omit<Unresolved, 'until'>, windowMs: number): void {
	const until = Date.now() + windowMs;
	for (const key of keys) {
		unresolved.delete(key);
		unresolved.set(key, { ...entry, until });
	}
	for (const oldest of unresolved.keys()) {
		if (unresolved.size <= MAX_UNRESOLVED) break;
		unresolved.delete(oldest);
	}
}

/** The entry of the first of these keys still unresolved. */
export function unresolvedOf(keys: string[]): Unresolved | undefined {
	const now = Date.now();
	for (const key of keys) {
		const entry = current(key, now);
		if (entry) return entry;
	}
	return undefined;
}

/** A lead was found for these contacts: nothing left in doubt. */
export function resolve(keys: string[]): void {
	for (const key of keys) unresolved.delete(key);
}
