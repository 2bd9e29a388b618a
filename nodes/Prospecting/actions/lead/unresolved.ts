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
	/** Until when a later try of the same node (Retry On Fail) can still read when its create was sent. */
	keptUntil: number;
}

/**
 * How long an entry is kept for n8n's Retry On Fail after its window is over (a window may be 0): n8n's tries come
 * seconds apart, and an hour matches the record of each write's try (actions/helpers/writeOnce.ts).
 */
const KEPT_FOR_RETRIES_MS = 60 * 60 * 1000;

/** Far more contacts than one process holds in doubt at a time; the oldest go first. */
const MAX_UNRESOLVED = 10_000;

const unresolved = new Map<string, Unresolved>();

function kept(key: string, now: number): Unresolved | undefined {
	const entry = unresolved.get(key);
	if (entry && entry.keptUntil <= now) {
		unresolved.delete(key);
		return undefined;
	}
	return entry;
}

/** Marks these contact keys unresolved for `windowMs` from now. */
export function markUnresolved(keys: string[], entry: Omit<Unresolved, 'until' | 'keptUntil'>, windowMs: number): void {
	const until = Date.now() + windowMs;
	const keptUntil = Math.max(until, Date.now() + KEPT_FOR_RETRIES_MS);
	for (const key of keys) {
		unresolved.delete(key);
		unresolved.set(key, { ...entry, until, keptUntil });
	}
	for (const oldest of unresolved.keys()) {
		if (unresolved.size <= MAX_UNRESOLVED) break;
		unresolved.delete(oldest);
	}
}

/** The entry of the first of these keys still unresolved (within its window). */
export function unresolvedOf(keys: string[]): Unresolved | undefined {
	const now = Date.now();
	return keys.map((key) => kept(key, now)).find((entry) => entry !== undefined && entry.until > now);
}

/** The entry of the first of these keys, its window over or not, for a later try of the node that sent it. */
export function earlierSendOf(keys: string[]): Unresolved | undefined {
	const now = Date.now();
	return keys.map((key) => kept(key, now)).find((entry) => entry !== undefined);
}
