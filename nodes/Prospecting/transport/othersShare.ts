/**
 * Other clients of the key (other n8n workers, other tools), seen through X-RateLimit-Remaining alone: an answer
 * shows how many calls the service had counted when it counted that call, and what this process's own counted calls
 * cannot explain is the others'. Measured afresh every window, so a client that stops no longer counts.
 */

/**
 * The others decide on figures as old as this process's: besides their calls in flight (about as many per own call
 * as they make), they send about as many again on the same stale figure before the next answer shows them.
 */
const OTHERS_STALENESS = 2;

/** One call at a time is enough while all the clients, each so, would still send what is left this many times over. */
const ONE_AT_A_TIME_HEADROOM = 2;
const STALLED_TRIP_FACTOR = 2;

/**
 * `announced`: the lowest remaining announced in this window; `idle`: none of this process's calls is in flight (its
 * figure is as fresh as it gets); `answers` so far in this window; `tailTaken`: its one tail call of this window;
 * `othersLastWindow`: the others' calls counted in the last window (none in the first, where others may yet join
 * unseen); `oneAtATime`: its calls in a window's length one at a time, at its usual trip (0: not known); `stale`: no
 * answer came for longer than that trip, or the last ones came late (held behind a stall), so the others may have used
 * up what they announced.
 */
export interface ShareInput {
	announced: number; idle: boolean; answers: number; tailTaken: boolean;
	othersPerOwnCall: number; othersLastWindow?: number; oneAtATime: number; stale: boolean;
}

/**
 * How many calls this process may have in flight: its part of what is left, opened gradually, or its tail call. One
 * call at a time once others share the key (or may: in the first window) and its figure is stale, or their late calls
 * may take all that is left (no more is left than they sent in the last window), or the clients, each one at a time,
 * still fill the window: then a figure gone stale, by a stall however long, costs at most one 429 per window.
 */
export function fairShare(input: ShareInput): number {
	const share = Math.min(Math.max(inProportion(input), tailCall(input)), 1 + input.answers);
	const { announced, othersLastWindow = 0, othersPerOwnCall, oneAtATime, stale } = input;
	const fills = (1 + othersPerOwnCall) * oneAtATime >= ONE_AT_A_TIME_HEADROOM * announced;
	const shared = othersPerOwnCall > 0 || othersLastWindow > 0 || input.othersLastWindow === undefined;
	return shared && (stale || announced <= othersLastWindow || fills) ? Math.min(share, 1) : share;
}

/** Its part of `announced`, with room for the others' calls in flight and as many again. */
function inProportion({ announced, othersPerOwnCall }: ShareInput): number {
	return Math.floor(announced / (1 + OTHERS_STALENESS * othersPerOwnCall));
}

/**
 * At a window's end every client's share rounds down to nothing while a few calls are left. A client with nothing in
 * flight takes one of them, once per window, when one is left for each client (the others counted as whole
 * clients): so the window fills, and a figure grown stale by then costs at most one 429 per client and window.
 */
function tailCall(input: ShareInput): number {
	const oneEach = input.announced >= 1 + Math.round(input.othersPerOwnCall);
	return input.idle && !input.tailTaken && oneEach && inProportion(input) === 0 ? 1 : 0;
}

/** The counts of the current window that the share is taken from. */
export class OthersEstimate {
	/** This process's calls counted in this window whose answers have come, and the highest count any showed. */
	private ownCounted = 0;
	private counted = 0;
	private answers = 0;
	private tailTaken = false;
	private othersLastWindow?: number;
	private tripMs?: number;
	private lastAnswerAt?: number;
	/** When an answer came held behind a stall (past `STALLED_TRIP_FACTOR` usual trips): stale until a later call's answer. */
	private lateSince?: number;

	constructor(private readonly windowMs = 0) {}

	/**
	 * An answer of this window announced `remaining`. Own calls still in flight may explain part of the highest
	 * count, so until they answer the others are overestimated, never under: answers out of order mislead nobody.
	 * `tripMs` from reservation to answer goes into the usual trip, a stall counted as `STALLED_TRIP_FACTOR` trips.
	 */
	observe(limit: number, remaining: number, tripMs: number): void {
		this.ownCounted += 1;
		this.counted = Math.max(this.counted, limit - remaining);
		if (this.tripMs !== undefined && tripMs > STALLED_TRIP_FACTOR * this.tripMs) this.lateSince = Date.now();
		else if (Date.now() - tripMs >= (this.lateSince ?? Infinity)) this.lateSince = undefined;
		this.tripMs = this.tripMs === undefined ? tripMs : (3 * this.tripMs + Math.min(tripMs, STALLED_TRIP_FACTOR * this.tripMs)) / 4;
	}

	answered = (): unknown => Object.assign(this, { answers: this.answers + 1, lastAnswerAt: Date.now() });
	turn = (): unknown =>
		Object.assign(this, { othersLastWindow: this.othersCounted(), ownCounted: 0, counted: 0, answers: 0, tailTaken: false });
	share = (announced: number, idle = false): number => fairShare(this.input(announced, idle));
	private othersCounted = (): number => Math.max(0, this.counted - this.ownCounted);

	/** A call was reserved out of `announced`: the tail call is taken once per window. */
	reserved = (announced: number, idle: boolean): unknown => tailCall(this.input(announced, idle)) === 1 && (this.tailTaken = true);
	get othersPerOwnCall(): number { return this.ownCounted === 0 ? 0 : this.othersCounted() / this.ownCounted; }

	private input(announced: number, idle: boolean): ShareInput {
		const { answers, othersPerOwnCall, tailTaken, othersLastWindow, windowMs, tripMs, lastAnswerAt, lateSince } = this;
		const oneAtATime = tripMs === undefined || !(windowMs > 0) ? 0 : windowMs / Math.max(1, tripMs);
		const stale = lateSince !== undefined || (tripMs !== undefined && lastAnswerAt !== undefined && Date.now() - lastAnswerAt > tripMs);
		return { announced, idle, answers, othersPerOwnCall, tailTaken, othersLastWindow, oneAtATime, stale };
	}
}
