/**
 * How many calls other clients of the same key (other n8n workers, other tools) make per call of this
 * process in the current window, read from X-RateLimit-Remaining alone: when one of its calls was
 * counted, the service had counted `limit - remaining` calls, and what this process's own calls cannot
 * explain is the others'. Without a shared store that is all a worker can know of the others, and it is
 * enough to take only its share of what is left instead of racing them into a 429.
 *
 * It is measured afresh in every window, so a client that stops is no longer counted from the next
 * window on and the whole limit is this process's again.
 */

/**
 * The others decide on figures as old as this process's: besides their calls in flight (about as many
 * per own call as they make), they send about as many again on the same stale figure before the next
 * answer shows them. Leaving room for both keeps every client of a saturated key clear of 429s.
 */
const OTHERS_STALENESS = 2;

export class OthersEstimate {
	/** This process's calls in the current window, with those in flight when it began (they may be counted in it). */
	private ownCalls = 0;

	/** Other clients' calls per own call in the current window. */
	private perOwn = 0;

	/** The service's count when the latest-counted call answered in this window was counted. */
	private counted = 0;

	/**
	 * Answers in the current window so far. A window opens gradually: one more call in flight per
	 * answer, so the first answers show the others before this process has sent much on a guess.
	 */
	private answers = 0;

	/** A call of this process was reserved in the current window; returns its place among them. */
	sent(): number {
		this.ownCalls += 1;
		return this.ownCalls;
	}

	/**
	 * The answer of this process's `order`-th call of the window announced `remaining`: the service had
	 * counted `limit - remaining` calls, about `order` of them this process's (those sent before it), the
	 * rest the others'. The latest-counted call tells the most.
	 */
	observe(limit: number | undefined, remaining: number, order: number): void {
		if (limit === undefined || limit - remaining < this.counted) return;
		this.counted = limit - remaining;
		this.perOwn = Math.max(0, this.counted - order) / order;
	}

	/** An answer of the current window arrived. */
	answered(): void {
		this.answers += 1;
	}

	/** A new window began with `inFlight` calls of this process still on their way. */
	turn(inFlight: number): void {
		this.ownCalls = inFlight;
		this.perOwn = 0;
		this.counted = 0;
		this.answers = 0;
	}

	/**
	 * How many calls this process may have in flight out of `announced` remaining: its share, the others
	 * taking theirs in proportion to their calls so far. Alone it is all of them, once the window is open.
	 */
	share(announced: number): number {
		const share = Math.floor(announced / (1 + OTHERS_STALENESS * this.perOwn));
		return Math.min(share, 1 + this.answers);
	}

	/** Other clients' calls per own call in this window, for logs and tests. */
	get othersPerOwnCall(): number {
		return this.perOwn;
	}
}
