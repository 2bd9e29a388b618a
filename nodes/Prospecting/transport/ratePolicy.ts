import { CallQueue, RateWaitTooLong, type AcquireOptions } from './callQueue';
import { OthersEstimate } from './othersShare';
import { pause } from './pause';
import type { RateAnswer } from './rateHeaders';
import { refusalFloorMs } from './refusal';
import { clockWindowStart, ServiceWindow } from './serviceWindow';

/**
 * Every rate rule of the package (docs/rate-limits-and-spikes.md says them in the same words). The service counts
 * reads and writes per key in fixed windows and answers 429 past them. A budget (one per account and kind, shared by
 * every execution of this process) starts from the credential's limits and paces its calls so that no window's
 * length holds more than a window allows, whatever the window's phase. Where the service sends X-RateLimit-* on its
 * answers, they are its truth and win. A 429 holds every call of the budget until its Retry-After has passed.
 */

/**
 * The credential's view: calls per window of this kind, the window's length (0: unknown), processes sharing the key,
 * and whether windows begin on the clock (at whole multiples of their length) rather than anywhere.
 */
export interface RateSettings { limit: number; windowMs: number; clients: number; clockWindows?: boolean }

/** A call sent this long after a window's announced end is counted in the next, despite clock and timer jitter. */
const WINDOW_END_MARGIN_MS = 25;

/** A call reserved with `acquire`: its wait, the window it was reserved in, and when it went. */
export interface Reservation { waitedMs: number; window: number; at: number }

type Decision = { go: true } | { until: number } | { answer: true; until?: number };
const GO: Decision = { go: true };

/** One budget (reads or writes) of one (base URL, key). */
export class RateBudget {
	private limit = this.settings.limit;
	private inFlight = 0;
	private lastActiveAt = Date.now();
	private readonly queue = new CallQueue();
	private heldUntil = 0;
	/** When its latest answers came, oldest first, a pace of them: each call was counted by then, however long its trip. */
	private answeredAt: number[] = [];
	/** The service announced X-RateLimit-Remaining on its last answer that was not a 429. */
	private headed = false;
	private window = new ServiceWindow(undefined);
	private windowNumber = 0;
	/** The reset of the window this budget last turned from: answers up to it are of an ended window. */
	private endedResetAt?: number;
	/** How much later than announced the service's windows end (its clock behind this one), learnt from refusals. */
	private resetLagMs = 0;
	private readonly others = new OthersEstimate(this.settings.windowMs);

	constructor(readonly settings: RateSettings) {}

	/** Reserves one call, in the order calls asked, waiting as the rules say. */
	async acquire(options: AcquireOptions = {}): Promise<Reservation> {
		this.lastActiveAt = Date.now();
		return await this.queue.enter(async () => await this.reserve(options), {
			...options,
			tooLate: () => new RateWaitTooLong(Math.max(0, ((this.decide(Date.now()) as { until?: number }).until ?? 0) - Date.now())),
			// Never sent: it takes no place in the pace.
			abandon: () => this.cancel(),
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
		return { waitedMs, window: this.windowNumber, at: Date.now() };
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
	 * Without headers: a call goes while fewer than a pace of this process's calls may count in the service's current
	 * window: those on their way, and those answered within a window's length (windows anywhere) or since the current
	 * window began (windows on the clock). So no window, whatever its phase, holds more than a pace of them.
	 */
	private pacedSlot(now: number): Decision {
		const { windowMs, clockWindows } = this.settings;
		const mayCountBeside = this.pace() - 1 - this.inFlight;
		if (!(windowMs > 0)) return GO;
		if (mayCountBeside < 0) return { answer: true };
		const answeredAt = this.answeredAt[this.answeredAt.length - 1 - mayCountBeside] ?? -Infinity;
		// The service's current window began a window's length ago at the earliest, or on the clock at its start.
		const since = clockWindows ? clockWindowStart(now - WINDOW_END_MARGIN_MS, windowMs, this.resetLagMs) : now - windowMs;
		if (answeredAt < since - WINDOW_END_MARGIN_MS) return GO;
		return { until: (clockWindows ? since : answeredAt) + windowMs + WINDOW_END_MARGIN_MS };
	}

	/** A call was answered (or got no answer but may have been counted) now: a pace of answers is all a slot reads. */
	private answered = (now: number): unknown => this.answeredAt.splice(0, this.answeredAt.push(now) - this.pace());
	/** A call of this window came back telling nothing of it, or was never sent: the next may ask (a call of an ended window never asked). */
	private askerDone = (reservation?: Reservation): unknown =>
		(reservation === undefined || reservation.window === this.windowNumber) && (this.window.asking = false);
	private pace = (): number => Math.max(1, Math.floor(this.limit / Math.max(1, this.settings.clients)));
	private windowEnd = (): number | undefined => (this.headed ? this.window.end(this.settings.windowMs, this.resetLagMs) : undefined);
	private announced = (): number => this.window.announced(this.inFlight);

	/** The full limit again, less the calls still in flight, which may be counted in the new window. */
	private turnWindow(): void {
		this.endedResetAt = this.window.resetAt ?? this.endedResetAt;
		this.window = new ServiceWindow(this.limit - this.inFlight);
		this.windowNumber += 1;
		this.others.turn();
	}

	/** Records the answer of a reserved call. */
	settle(reservation: Reservation | undefined, answer: RateAnswer): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		const now = Date.now();
		if (reservation) this.answered(now);
		if (answer.limit !== undefined) this.limit = answer.limit;
		if (answer.status !== 429) this.headed = answer.remaining !== undefined;
		const { remaining, resetAt } = answer;
		// An answer counted before the window turned and answered after says nothing of the new one.
		const place = this.window.place(resetAt, this.endedResetAt, reservation !== undefined && reservation.window !== this.windowNumber);
		if (remaining !== undefined && place !== 'stale') {
			if (place === 'newer' && this.window.resetAt !== undefined) this.turnWindow();
			if (place === 'newer') this.window.seenAt = now;
			this.window.announce(remaining, this.inFlight, place === 'newer' || resetAt === undefined);
			const ofThisWindow = reservation !== undefined && (resetAt !== undefined || reservation.window === this.windowNumber);
			if (ofThisWindow && answer.status !== 429) this.others.observe(this.limit, remaining, now - reservation.at);
		}
		if (place !== 'stale') {
			if (resetAt !== undefined) this.window.resetAt = resetAt;
			this.window.known = true;
			this.others.answered();
		}
		if (answer.status === 429) {
			this.window.remaining = 0;
			const floor = refusalFloorMs(answer, this.settings.windowMs, now);
			// Every call waits the floor. The paced calls before it are of ended windows, and where successful answers carry no
			// headers nothing else ends the refused window: after the floor one call asks first.
			this.heldUntil = Math.max(this.heldUntil, now + floor);
			this.answeredAt = [];
			if (!this.headed) this.turnWindow();
			// Refused in a window this budget took as ended: the service's clock is behind, by as much as it asks.
			const ended = place === 'stale' || (this.settings.clockWindows && reservation !== undefined && reservation.at >= (resetAt ?? Infinity));
			if (ended && resetAt !== undefined) this.resetLagMs = Math.min(Math.max(this.resetLagMs, now + floor - resetAt), this.settings.windowMs);
		}
		if (!this.window.known) this.askerDone(reservation);
		this.lastActiveAt = now;
		this.queue.answered();
	}

	/** How long calls are still held by a 429 (0 when they are not). */
	heldForMs = (now = Date.now()): number => Math.max(0, this.heldUntil - now);

	/** Gives back a reservation whose call got no answer (it may still have been counted). */
	cancel(reservation?: Reservation): void {
		if (reservation) this.answered(Date.now());
		this.inFlight = Math.max(0, this.inFlight - 1);
		this.askerDone(reservation);
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
}
