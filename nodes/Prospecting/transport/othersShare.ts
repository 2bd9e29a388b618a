/**
 * Other clients of the key (other n8n workers, other tools), seen through X-RateLimit-Remaining alone: an answer
 * shows how many calls the service had counted when it counted that call, and what this process's own counted calls
 * cannot explain is the others'. Measured afresh every window; the last window's figure stands beside it while the
 * others may still be on their way back, so a process that opens a window leaves them room.
 */

/** The part of a window the last window's figure stands for: others come back late by the reset's rounding and a trip. */
const LAST_WINDOW_STANDS_FOR = 0.5;

/**
 * The others decide on figures as old as this process's: besides their calls in flight (about as many per own call
 * as they make), they send about as many again on the same stale figure before the next answer shows them.
 */
const OTHERS_STALENESS = 2;

/** `announced`: the lowest remaining of this window; `idle`: nothing of its own in flight; `answers` of this window. */
export interface ShareInput { announced: number; idle: boolean; answers: number; othersPerOwnCall: number }

/** How many calls this process may have in flight: its part of what is left, opened gradually, or a tail call. */
export function fairShare(input: ShareInput): number {
	return Math.min(Math.max(inProportion(input), tailCall(input)), 1 + input.answers);
}

/** Its part of `announced`, with room for the others' calls in flight and as many again. */
function inProportion({ announced, othersPerOwnCall }: ShareInput): number {
	return Math.floor(announced / (1 + OTHERS_STALENESS * othersPerOwnCall));
}

/**
 * At a window's end every client's share rounds down to nothing while a few calls are left. A client with nothing in
 * flight takes one of them at a time while one is left for each client (the others counted as whole clients): so the
 * window fills, and a figure grown stale by then costs at most one 429 per client and window (a 429 holds the rest).
 */
function tailCall(input: ShareInput): number {
	return input.idle && inProportion(input) === 0 && input.announced >= 1 + Math.round(input.othersPerOwnCall) ? 1 : 0;
}

/** The counts of the current window that the share is taken from. */
export class OthersEstimate {
	/** This process's calls counted in this window whose answers have come, and the highest count any showed. */
	private ownCounted = 0;
	private counted = 0;
	private answers = 0;
	/** What the last window measured, and until when it stands. */
	private lastWindow = 0;
	private lastWindowUntil = 0;

	constructor(private readonly windowMs: number) {}

	/**
	 * An answer of this window announced `remaining`. Own calls still in flight may explain part of the highest
	 * count, so until they answer the others are overestimated, never under: answers out of order mislead nobody.
	 */
	observe(limit: number, remaining: number): void {
		this.ownCounted += 1;
		this.counted = Math.max(this.counted, limit - remaining);
	}

	answered = (): number => (this.answers += 1);
	share = (announced: number, idle = false, now = Date.now()): number =>
		fairShare({ announced, idle, answers: this.answers, othersPerOwnCall: this.othersPerOwnCall(now) });

	turn(now = Date.now()): void {
		this.lastWindow = this.measured();
		this.lastWindowUntil = now + this.windowMs * LAST_WINDOW_STANDS_FOR;
		this.ownCounted = this.counted = this.answers = 0;
	}

	othersPerOwnCall(now = Date.now()): number {
		return now < this.lastWindowUntil ? Math.max(this.measured(), this.lastWindow) : this.measured();
	}

	private measured(): number {
		return this.ownCounted === 0 ? 0 : Math.max(0, this.counted - this.ownCounted) / this.ownCounted;
	}
}
