/**
 * How many calls other clients of the same key (other n8n workers, other tools) make while one of
 * this process's calls is on its way, read from X-RateLimit-Remaining alone: between two answers of
 * one window the count falls by this process's own calls plus the others'. Without a shared store,
 * that is all a worker can know of the others, and it is enough to leave them their share at the end
 * of a window instead of racing them into a 429.
 */

/** Weight of the newest observation; the rest is the earlier estimate, so one burst does not decide alone. */
const NEWEST_WEIGHT = 0.5;
/** Below this the others are taken to have stopped, and the whole window is this process's again. */
const NEGLIGIBLE = 0.25;

export class OthersEstimate {
	/** Calls by other clients counted during one round trip of a call of this process. */
	private perRoundTrip = 0;

	/**
	 * One answer of the current window announced `remaining` after `lowest` was the lowest figure seen.
	 * The fall is this call, calls of this process still in flight (they may have been counted first),
	 * and the others' calls; what the first two cannot explain is the others'.
	 */
	observe(lowest: number, remaining: number, inFlight: number): void {
		if (remaining >= lowest) return; // counted before the lowest figure: already in an earlier fall
		const others = Math.max(0, lowest - remaining - 1 - inFlight);
		this.perRoundTrip = (1 - NEWEST_WEIGHT) * this.perRoundTrip + NEWEST_WEIGHT * others;
		if (this.perRoundTrip < NEGLIGIBLE) this.perRoundTrip = 0;
	}

	/**
	 * Calls to leave unsent at the end of a window for the others' calls already on their way, so
	 * they are not refused; at most half the limit, so a burst of others never stops this process.
	 */
	reserve(limit: number | undefined): number {
		const reserve = Math.round(this.perRoundTrip);
		return limit === undefined ? reserve : Math.min(reserve, Math.floor(limit / 2));
	}

	/** The estimate itself (calls by others per round trip), for logs and tests. */
	get othersPerRoundTrip(): number {
		return this.perRoundTrip;
	}
}
