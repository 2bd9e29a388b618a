import { CallQueue, RateWaitTooLong, type AcquireOptions } from './callQueue';
import { OthersEstimate } from './othersShare';
import { pause } from './pause';
import type { RateAnswer } from './rateHeaders';
import { refusalFloorMs } from './refusal';
import { ServiceWindow } from './serviceWindow';

/**
 * Every rate rule of the package (docs/rate-limits-and-spikes.md says them in the same words). The service counts
 * reads and writes per key in fixed windows and answers 429 past them. A budget (one per account and kind, shared by
 * every execution of this process) starts from the credential's limits and paces its calls so that no window's
 * length holds more than a window allows, whatever the window's phase. Where the service sends X-RateLimit-* on its
 * answers, they are its truth and win. A 429 holds every call of the budget until its Retry-After has passed.
 */

/** The credential's view: calls per window of this kind, the window's length (0: unknown), processes sharing the key. */
export interface RateSettings {
	limit: number;
	windowMs: number;
	clients: number;
}

/** A call sent this long after a window's announced end is counted in the next, despite clock and timer jitter. */
const WINDOW_END_MARGIN_MS = 25;

/** A call reserved with `acquire`: its wait, the window it was reserved in, and when it was surely counted by. */
export interface Reservation {
	waitedMs: number;
	window: number;
	counted: { by?: number };
}

type Decision = { go: true } | { until: number } | { answer: true; until?: number };
const GO: Decision = { go: true };

/** One budget (reads or writes) of one (base URL, key). */
export class RateBudget {
	private limit: number;
	private inFlight = 0;
	private lastActiveAt = Date.now();
	private readonly queue = new CallQueue();
	private heldUntil = 0;
	/** Its latest calls, a pace of them, each surely counted by its answer however long the trip (no headers). */
	private sends: Array<Reservation['counted']> = [];
	/** The service announced X-RateLimit-Remaining on its last answer that was not a 429. */
	private headed = false;
	private window = new ServiceWindow(undefined);
	private windowNumber = 0;
	/** The reset of the window this budget last turned from: answers up to it are of an ended window. */
	private endedResetAt?: number;
	/** How much later than announced the service's windows end (its clock behind this one), learnt from refusals. */
	private resetLagMs = 0;
	private readonly others = new OthersEstimate();

	constructor(readonly settings: RateSettings) {
		this.limit = settings.limit;
	}

	/** Reserves one call, in the order calls asked, waiting as the rules say. */
	async acquire(options: AcquireOptions = {}): Promise<Reservation> {
		this.lastActiveAt = Date.now();
		return await this.queue.enter(async () => await this.reserve(options), {
			...options,
			tooLate: () => new RateWaitTooLong(Math.max(0, (this.nextTime() ?? Date.now()) - Date.now())),
			// Never sent: its place in the pace goes back too.
			abandon: (reservation) => {
				this.sends = this.sends.filter((entry) => entry !== reservation.counted);
				this.cancel();
			},
		});
	}

	private async reserve({ signal, deadlineAt, onWait }: AcquireOptions): Promise<Reservation> {
		let waitedMs = 0;
		for (;;) {
			const decision = this.decide(Date.now());
			if ('go' in decision) break;
			if ('answer' in decision) {
				await this.queue.nextAnswer(signal, decision.until === undefined ? undefined : decision.until + WINDOW_END_MARGIN_MS);
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

	private windowEnd(): number | undefined {
		return this.headed ? this.window.end(this.settings.windowMs, this.resetLagMs) : undefined;
	}

	/** The full limit again, less the calls still in flight, which may be counted in the new window. */
	private turnWindow(): void {
		this.endedResetAt = this.window.resetAt ?? this.endedResetAt;
		this.window = new ServiceWindow(this.limit - this.inFlight);
		this.windowNumber += 1;
		this.others.turn();
	}

	private announced(): number {
		return this.window.announced(this.inFlight);
	}

	/** Records the answer of a reserved call. */
	settle(reservation: Reservation | undefined, answer: RateAnswer): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		const now = Date.now();
		if (reservation) reservation.counted.by = now;
		if (answer.limit !== undefined) this.limit = answer.limit;
		if (answer.status !== 429) this.headed = answer.remaining !== undefined;
		const { remaining, resetAt } = answer;
		// An answer counted before the window turned and answered after says nothing of the new one.
		const place = this.window.place(resetAt, this.endedResetAt);
		if (remaining !== undefined && place !== 'stale') {
			if (place === 'newer' && this.window.resetAt !== undefined) this.turnWindow();
			if (place === 'newer') this.window.seenAt = now;
			this.window.announce(remaining, this.inFlight, place === 'newer' || resetAt === undefined);
			const ofThisWindow = reservation !== undefined && (resetAt !== undefined || reservation.window === this.windowNumber);
			if (ofThisWindow && answer.status !== 429) this.others.observe(this.limit, remaining);
		}
		if (place !== 'stale') {
			if (resetAt !== undefined) this.window.resetAt = resetAt;
			this.window.known = true;
			this.others.answered();
		}
		if (answer.status === 429) {
			this.window.remaining = 0;
			const floor = refusalFloorMs(answer, this.settings.windowMs, now);
			this.hold(now + floor);
			// Refused in the window this budget took as ended: the service's clock is behind, by as much as it asks.
			if (place === 'stale' && resetAt !== undefined) this.resetLagMs = Math.min(Math.max(this.resetLagMs, now + floor - resetAt), this.settings.windowMs);
		}
		// An answer that told nothing of the current window lets another call ask.
		if (!this.window.known) this.window.asking = false;
		this.lastActiveAt = now;
		this.queue.answered();
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
		this.queue.answered();
	}

	/** Unused for `idleMs`, with nothing waiting or held: its figures tell nothing of the service's window. */
	isIdle(now: number, idleMs: number): boolean {
		return this.inFlight === 0 && this.queue.waiting === 0 && now >= this.heldUntil && now - this.lastActiveAt > idleMs;
	}

	/** A read-only view for tests and benchmarks. */
	snapshot() {
		const { limit, inFlight, heldUntil, headed, window } = this;
		return { limit, inFlight, heldUntil, paced: !headed, remaining: window.remaining, windowEndsAt: this.windowEnd() };
	}

	/** The earliest time a call could go, when a clock alone decides it. */
	private nextTime(): number | undefined {
		const decision = this.decide(Date.now());
		return 'until' in decision ? decision.until : undefined;
	}
}
