/**
 * How many calls other clients of the same key (other n8n workers, other tools) make per call of this
 * process in the current window, read from X-RateLimit-Remaining alone: each answer shows how many calls
 * the service had counted when it counted that call, and what this process's own counted calls cannot
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
	/** This process's calls counted in the current window whose answers have come. */
	private ownCounted = 0;

	/** The highest count of the current window any answer of this process showed. */
	private counted = 0;

	/** This process has taken its one call at the end of the current window (see `share`). */
	private tailTaken = false;

	/**
	 * Answers in the current window so far. A window opens gradually: one more call in flight per
	 * answer, so the first answers show the others before this process has sent much on a guess.
	 */
	private answers = 0;

	/**
	 * An answer of this window announced `remaining`: the service had counted `limit - remaining` calls by
	 * then. Of the highest count seen, this process's answered calls explain their number; own calls still
	 * in flight may explain a few more, so until they answer the others are overestimated, never under.
	 * Answers arriving in another order than the service counted them therefore mislead nobody.
	 */
	observe(limit: number | undefined, remaining: number): void {
		if (limit === undefined) return;
		this.ownCounted += 1;
		this.counted = Math.max(this.counted, limit - remaining);
	}

	/** An answer of the current window arrived. */
	answered(): void {
		this.answers += 1;
	}

	/** A new window began. */
	turn(): void {
		this.ownCounted = 0;
		this.counted = 0;
		this.answers = 0;
		this.tailTaken = false;
	}

	/** How many calls this process may have in flight out of `announced` remaining (see `fairShare`). */
	share(announced: number, idle = false): number {
		return fairShare({ announced, idle, answers: this.answers, othersPerOwnCall: this.othersPerOwnCall, tailTaken: this.tailTaken });
	}

	/** A call was reserved out of `announced`; `idle` when none of this process's was in flight. */
	reserved(announced: number, idle: boolean): void {
		const input = { announced, idle, answers: this.answers, othersPerOwnCall: this.othersPerOwnCall, tailTaken: this.tailTaken };
		if (tailCall(input) === 1) this.tailTaken = true;
	}

	/** Other clients' calls per own call in this window. */
	get othersPerOwnCall(): number {
		return this.ownCounted === 0 ? 0 : Math.max(0, this.counted - this.ownCounted) / this.ownCounted;
	}
}

export interface ShareInput {
	/** The count the share is taken from: the lowest remaining announced in this window. */
	announced: number;
	/** None of this process's calls is in flight (its figure is as fresh as it gets). */
	idle: boolean;
	/** Answers in this window so far: a window opens one more call in flight per answer. */
	answers: number;
	othersPerOwnCall: number;
	/** This process already took its one call at the end of this window. */
	tailTaken: boolean;
}

/**
 * How many calls this process may have in flight: its part of what is left, the others taking theirs in proportion
 * to their calls so far (alone it is all of it), opened gradually, and at the window's end one call (see `tailCall`).
 */
export function fairShare(input: ShareInput): number {
	return Math.min(Math.max(inProportion(input), tailCall(input)), 1 + input.answers);
}

/** Its part of `announced`, with room for the others' calls in flight and as many again. */
function inProportion({ announced, othersPerOwnCall }: ShareInput): number {
	return Math.floor(announced / (1 + OTHERS_STALENESS * othersPerOwnCall));
}

/**
 * At a window's end every client's share rounds down to nothing while a few calls are left, and each would leave
 * them to the others. A client with nothing in flight takes one of them, once per window, when one is left for each
 * client: so the window fills, and a figure grown stale by then costs at most one 429 per client and window. The
 * others are counted as whole clients (their calls per own call, rounded): unrounded, of two clients at unequal paces
 * the slower would count more than one other and leave the last call of every window to the faster.
 */
function tailCall(input: ShareInput): number {
	const oneEach = input.announced >= 1 + Math.round(input.othersPerOwnCall);
	return input.idle && !input.tailTaken && oneEach && inProportion(input) === 0 ? 1 : 0;
}
