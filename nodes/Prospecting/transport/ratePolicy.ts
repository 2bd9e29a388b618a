import { OthersEstimate } from './othersShare';
import { pause } from './pause';
import type { RateAnswer } from './rateHeaders';

/**
 * Every rate rule of the package. The service counts reads and writes per key in fixed windows (200 reads and 100
 * writes per 60 s by its documentation) and answers 429 past them. One budget per (base URL, key, kind) is shared
 * by every execution of this n8n process. A budget starts from the credential's limits and paces its own calls so
 * that no window's length ever holds more calls than a window allows, whatever the window's phase: then a fixed
 * window cannot refuse them. Where the service sends X-RateLimit-* on its answers, those are its truth and win:
 * calls go while the announced count allows (less the share other clients of the key take), and resume when the
 * announced window ends. A 429 holds every call of the budget until its Retry-After has passed.
 */

export type CallKind = 'read' | 'write';

/** What the credential says of the service: assumed until the service's headers say otherwise. */
export interface RateSettings {
	/** Calls per window of this kind. */
	limit: number;
	/** Length of the service's fixed window; 0 when unknown. */
	windowMs: number;
	/** n8n processes sharing the key, each pacing itself at its part of the limit where no headers tell more. */
	clients: number;
}

/** The service's documented limits, assumed where a credential leaves them unset. */
export const DEFAULT_WINDOW_SECONDS = 60;
export const DEFAULT_LIMITS: Record<CallKind, number> = { read: 200, write: 100 };

/** A call sent this long after a window's announced end is counted in the next, despite clock and timer jitter. */
const WINDOW_END_MARGIN_MS = 25;
/** Shortest wait after a refusal, so a refused call never spins. */
const MIN_REFUSAL_WAIT_MS = 100;
/** A budget idle this many windows is dropped: its figures are of windows long ended. */
const IDLE_WINDOWS = 3;
/** Answers whose reset differs by more than this are of different windows (resets in whole seconds round up). */
const SAME_WINDOW_TOLERANCE_MS = 500;

/** A call reserved with `acquire`, given back to `settle` with its answer, or to `cancel`. */
export interface Reservation {
	/** How long the call waited for the budget, in ms. */
	waitedMs: number;
	/** The window it was reserved in, as this budget counts them. */
	window: number;
	/** When the service had surely counted it: its answer (pacing without headers). */
	counted: { by?: number };
}

/** The call could go only later than its deadline allows. */
export class RateWaitTooLong extends Error {
	constructor(readonly neededMs: number) {
		super(`The rate limit allows this call in ${Math.round(neededMs)} ms`);
	}
}

export interface AcquireOptions {
	signal?: AbortSignal;
	/** No wait may end after this time (ms); past it the call fails with `RateWaitTooLong`. */
	deadlineAt?: number;
	onWait?: (ms: number) => void;
}

/**
 * The one rule for a 429: Retry-After is a floor for every call of the key and kind; without it the announced reset,
 * and without either one whole window. (The 429's remaining and reset also hold calls as any answer's do.)
 */
export function refusalFloorMs(answer: RateAnswer, windowMs: number, now = Date.now()): number {
	const asked = answer.retryAfterMs ?? (answer.resetAt !== undefined ? answer.resetAt - now : windowMs);
	return Math.max(asked, MIN_REFUSAL_WAIT_MS);
}

/**
 * What the refused call itself does: it waits the floor, doubling its own last wait on a repeated refusal as the spec
 * asks, and that fits when it ends within what is left of the call's maximum.
 */
export function decideRefusal(
	answer: RateAnswer,
	call: { refusals: number; lastWaitMs: number; leftMs: number },
	windowMs: number,
): { waitMs: number; fits: boolean } {
	const floor = refusalFloorMs(answer, windowMs);
	const waitMs = call.refusals > 1 ? Math.max(floor, call.lastWaitMs * 2) : floor;
	return { waitMs, fits: waitMs <= call.leftMs };
}

type Decision = { go: true } | { until: number } | { answer: true; until?: number };
const GO: Decision = { go: true };

/** One budget (reads or writes) of one (base URL, key). */
export class RateBudget {
	private limit: number;
	private inFlight = 0;
	private queued = 0;
	private lastActiveAt = Date.now();
	private queue: Promise<unknown> = Promise.resolve();
	private answerWaiters: Array<() => void> = [];
	/** No call goes before this (a 429's Retry-After). */
	private heldUntil = 0;
	/**
	 * This process's latest calls, as many as its pace allows per window, with the time each was surely counted by:
	 * its answer (the service counts a call between its send and its answer, however long the trip).
	 */
	private sends: Array<Reservation['counted']> = [];
	/** The service announced X-RateLimit-Remaining on its last answer that was not a 429. */
	private headed = false;
	/** The service's current window as its headers told it. */
	private window = this.freshWindow(undefined);
	private windowNumber = 0;
	/** The reset of the window this budget last turned from: answers up to it are of an ended window. */
	private endedResetAt?: number;
	/** How much later than announced the service's windows end (its clock behind this one), learnt from refusals. */
	private resetLagMs = 0;
	private readonly others = new OthersEstimate();

	constructor(readonly settings: RateSettings) {
		this.limit = settings.limit;
	}

	private freshWindow(remaining: number | undefined) {
		/** `known` once an answer of it came; until then one call asks. `seenAt`: when its first answer came. */
		return { known: false, asking: false, remaining, lowest: undefined as number | undefined, resetAt: undefined as number | undefined, seenAt: undefined as number | undefined };
	}

	/** Reserves one call, in the order calls asked, waiting as the rules say. */
	async acquire(options: AcquireOptions = {}): Promise<Reservation> {
		const { signal, deadlineAt } = options;
		let left = false;
		this.queued += 1;
		const turn = this.queue.then(async () => {
			// A caller that left while queued (cancelled, or past its deadline) is skipped.
			if (signal?.aborted) await pause(0, signal);
			if (deadlineAt !== undefined && Date.now() > deadlineAt) throw new RateWaitTooLong(0);
			const reservation = await this.reserve(options);
			if (left) {
				// Never sent: its place in the pace goes back too.
				this.sends = this.sends.filter((entry) => entry !== reservation.counted);
				this.cancel();
			}
			return reservation;
		});
		this.queue = turn.catch(() => undefined);
		const stop = new AbortController();
		const leave: Array<Promise<never>> = [];
		if (deadlineAt !== undefined) {
			// Waiting behind earlier calls counts too: past the deadline the caller leaves the queue.
			leave.push(pause(Math.max(0, deadlineAt - Date.now()), stop.signal).then(() => {
				throw new RateWaitTooLong(Math.max(0, (this.nextTime() ?? deadlineAt) - Date.now()));
			}));
		}
		if (signal) leave.push(cancelled(signal, stop.signal));
		let reserved = false;
		try {
			const reservation = await Promise.race([turn, ...leave]);
			reserved = true;
			return reservation;
		} finally {
			// A caller that leaves gives its reservation back once its turn comes.
			if (!reserved) left = true;
			stop.abort();
			this.queued -= 1;
			this.lastActiveAt = Date.now();
		}
	}

	private async reserve({ signal, deadlineAt, onWait }: AcquireOptions): Promise<Reservation> {
		let waitedMs = 0;
		for (;;) {
			const decision = this.decide(Date.now());
			if ('go' in decision) break;
			if ('answer' in decision) {
				await this.nextAnswer(signal, decision.until);
				if (deadlineAt !== undefined && Date.now() > deadlineAt) throw new RateWaitTooLong(0);
				continue;
			}
			const wait = decision.until - Date.now();
			if (deadlineAt !== undefined && decision.until > deadlineAt) throw new RateWaitTooLong(wait);
			onWait?.(wait);
			await pause(wait, signal);
			waitedMs += wait;
		}
		const window = this.window;
		if (!window.known) window.asking = true;
		this.others.reserved(this.announced(), this.inFlight === 0);
		if (window.remaining !== undefined) window.remaining -= 1;
		this.inFlight += 1;
		const counted = {};
		this.sends.push(counted);
		if (this.sends.length > this.pace()) this.sends.shift();
		return { waitedMs, window: this.windowNumber, counted };
	}

	/** Whether a call may go now, or what it waits for. */
	private decide(now: number): Decision {
		if (now < this.heldUntil) return { until: this.heldUntil };
		const end = this.windowEnd();
		if (end !== undefined && now >= end) this.turnWindow();
		const window = this.window;
		// Nothing known of this window yet: one call asks, and its answer counts every client's calls.
		if (!window.known) return window.asking ? { answer: true } : GO;
		if (!this.headed) return this.pacedSlot(now);
		if (window.remaining === undefined) return GO;
		if (window.remaining > 0 && this.inFlight < this.others.share(this.announced(), this.inFlight === 0)) return GO;
		// Calls on their way tell more (what the others left); a slow one does not hold the rest past the window's end.
		if (this.inFlight > 0) return { answer: true, until: end };
		return end === undefined ? GO : { until: end + WINDOW_END_MARGIN_MS };
	}

	/**
	 * Without headers: a call goes once this process's call a pace earlier was counted a window's length ago, so no
	 * window's length, whatever its phase, holds more than a pace of its calls.
	 */
	private pacedSlot(now: number): Decision {
		const { windowMs } = this.settings;
		if (!(windowMs > 0) || this.sends.length < this.pace()) return GO;
		const { by } = this.sends[this.sends.length - this.pace()];
		if (by === undefined) return { answer: true };
		const at = by + windowMs + WINDOW_END_MARGIN_MS;
		return at <= now ? GO : { until: at };
	}

	private pace(): number {
		return Math.max(1, Math.floor(this.limit / Math.max(1, this.settings.clients)));
	}

	/** When the window ends: the announced reset, or sooner its length after its first answer. */
	private windowEnd(): number | undefined {
		const { resetAt, seenAt } = this.window;
		if (resetAt === undefined || !this.headed) return undefined;
		const end = resetAt + this.resetLagMs;
		if (seenAt === undefined || !(this.settings.windowMs > 0)) return end;
		return Math.min(end, seenAt + this.settings.windowMs);
	}

	/** The full limit again, less the calls still in flight, which may be counted in the new window. */
	private turnWindow(): void {
		this.endedResetAt = this.window.resetAt ?? this.endedResetAt;
		this.window = this.freshWindow(this.limit - this.inFlight);
		this.windowNumber += 1;
		this.others.turn();
	}

	/** The count the share is taken from: the lowest remaining announced in this window, or the budget's own count. */
	private announced(): number {
		return this.window.lowest ?? (this.window.remaining ?? 0) + this.inFlight;
	}

	/** Records the answer of a reserved call. */
	settle(reservation: Reservation | undefined, answer: RateAnswer): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		const now = Date.now();
		if (reservation) reservation.counted.by = now;
		if (answer.limit !== undefined) this.limit = answer.limit;
		if (answer.status !== 429) this.headed = answer.remaining !== undefined;
		const window = this.window;
		const { remaining, resetAt } = answer;
		// An answer counted before the window turned and answered after says nothing of the new one.
		const ended = window.resetAt ?? (this.endedResetAt ?? -Infinity) + 1000;
		const stale = resetAt !== undefined && resetAt < ended - SAME_WINDOW_TOLERANCE_MS;
		if (remaining !== undefined && !stale) {
			const newer = resetAt !== undefined && (window.resetAt === undefined || resetAt > window.resetAt + SAME_WINDOW_TOLERANCE_MS);
			if (newer && window.resetAt !== undefined) this.turnWindow();
			const current = this.window;
			if (newer) current.seenAt = now;
			// Answers come in another order than the service counted them: the lowest figure of the window is the best,
			// and every call counted after it is still in flight, so subtracting those never overstates what is left.
			current.lowest = newer || resetAt === undefined || current.remaining === undefined ? remaining : Math.min(current.lowest ?? remaining, remaining);
			current.remaining = current.lowest - this.inFlight;
			const ofThisWindow = reservation !== undefined && (resetAt !== undefined || reservation.window === this.windowNumber);
			if (ofThisWindow && answer.status !== 429) this.others.observe(this.limit, remaining);
		}
		if (resetAt !== undefined && !stale) this.window.resetAt = resetAt;
		if (!stale) {
			this.window.known = true;
			this.others.answered();
		}
		if (answer.status === 429) {
			this.window.remaining = 0;
			const floor = refusalFloorMs(answer, this.settings.windowMs, now);
			this.hold(now + floor);
			// Refused in the window this budget took as ended: the service's clock is behind, by as much as it asks.
			if (stale && resetAt !== undefined) this.resetLagMs = Math.min(Math.max(this.resetLagMs, now + floor - resetAt), this.settings.windowMs);
		}
		// An answer that told nothing of the current window lets another call ask.
		if (!this.window.known) this.window.asking = false;
		this.lastActiveAt = now;
		this.wake();
	}

	/** Holds every call of this budget until `until` (a 429's floor); the paced calls before it are of ended windows. */
	private hold(until: number): void {
		this.heldUntil = Math.max(this.heldUntil, until);
		this.sends = [];
	}

	/** How long calls are still held by a 429 (0 when they are not). */
	heldForMs(now = Date.now()): number {
		return Math.max(0, this.heldUntil - now);
	}

	/** Gives back a reservation whose call got no answer (it may still have been counted). */
	cancel(reservation?: Reservation): void {
		if (reservation) reservation.counted.by = Date.now();
		this.inFlight = Math.max(0, this.inFlight - 1);
		this.window.asking = false;
		this.wake();
	}

	/** Idle long enough that its figures tell nothing of the service's current window. */
	isIdle(now: number): boolean {
		const idleFor = (this.settings.windowMs || DEFAULT_WINDOW_SECONDS * 1000) * IDLE_WINDOWS;
		return this.inFlight === 0 && this.queued === 0 && now >= this.heldUntil && now - this.lastActiveAt > idleFor;
	}

	/** A read-only view for tests and benchmarks. */
	snapshot() {
		const { remaining, resetAt } = this.window;
		return { limit: this.limit, remaining, resetAt, windowEndsAt: this.windowEnd(), inFlight: this.inFlight, queued: this.queued, heldUntil: this.heldUntil, paced: !this.headed, othersPerOwnCall: this.others.othersPerOwnCall };
	}

	/** The earliest time a call could go, when a clock alone decides it. */
	private nextTime(): number | undefined {
		const decision = this.decide(Date.now());
		return 'until' in decision ? decision.until : undefined;
	}

	private async nextAnswer(signal: AbortSignal | undefined, until: number | undefined): Promise<void> {
		const stop = new AbortController();
		const waits: Array<Promise<unknown>> = [new Promise<void>((resolve) => this.answerWaiters.push(resolve))];
		if (until !== undefined) waits.push(pause(Math.max(0, until - Date.now() + WINDOW_END_MARGIN_MS), stop.signal).catch(() => undefined));
		if (signal) waits.push(cancelled(signal, stop.signal));
		try {
			await Promise.race(waits);
		} finally {
			stop.abort();
		}
	}

	private wake(): void {
		const waiters = this.answerWaiters;
		this.answerWaiters = [];
		for (const wake of waiters) wake();
	}
}

/** Rejects with n8n's cancellation error once the execution is cancelled; `done` ends the watch. */
async function cancelled(signal: AbortSignal, done: AbortSignal): Promise<never> {
	await new Promise<void>((resolve) => {
		if (signal.aborted) return resolve();
		const onAbort = () => resolve();
		signal.addEventListener('abort', onAbort, { once: true });
		done.addEventListener('abort', () => signal.removeEventListener('abort', onAbort), { once: true });
	});
	await pause(0, signal);
	throw new Error('The execution was cancelled');
}
