/** Answers whose resets differ by more than this are of different windows (resets in whole seconds round up). */
const SAME_WINDOW_TOLERANCE_MS = 500;

/**
 * Where windows begin on the clock (whole multiples of their length, by the service's clock `lagMs` behind): when the
 * one holding `now` began.
 */
export function clockWindowStart(now: number, windowMs: number, lagMs: number): number {
	const serviceNow = now - lagMs;
	return serviceNow - (serviceNow % windowMs) + lagMs;
}

/**
 * The service's current window as its X-RateLimit-* headers told it. Until an answer of it comes (`known`), one call
 * asks. `lowest` is the lowest remaining announced in it; `remaining` what this process may still send (the lowest,
 * less its calls in flight and reserved since); `seenAt` when its first answer came.
 */
export class ServiceWindow {
	known = false;
	asking = false;
	lowest?: number;
	resetAt?: number;
	seenAt?: number;

	constructor(public remaining: number | undefined) {}

	/**
	 * When it ends: the announced reset (plus how late the service's clock is), or sooner the window's length after
	 * its first answer, since it began no later.
	 */
	end(windowMs: number, lagMs: number): number | undefined {
		if (this.resetAt === undefined) return undefined;
		const end = this.resetAt + lagMs;
		return this.seenAt === undefined || !(windowMs > 0) ? end : Math.min(end, this.seenAt + windowMs);
	}

	/**
	 * An answer with this reset is of an ended window (`stale`), of a later one (`newer`), or of this one. Without a
	 * reset, the answer of a call sent before this window began (`sentBefore`) is of an ended one.
	 */
	place(resetAt: number | undefined, endedResetAt: number | undefined, sentBefore: boolean): 'stale' | 'newer' | 'same' {
		if (resetAt === undefined) return sentBefore ? 'stale' : 'same';
		const ended = this.resetAt ?? (endedResetAt ?? -Infinity) + 1000;
		if (resetAt < ended - SAME_WINDOW_TOLERANCE_MS) return 'stale';
		return this.resetAt === undefined || resetAt > this.resetAt + SAME_WINDOW_TOLERANCE_MS ? 'newer' : 'same';
	}

	/**
	 * Answers come in another order than the service counted them: the lowest figure of the window is the best, and
	 * every call counted after it is still in flight, so subtracting those never overstates what is left.
	 */
	announce(remaining: number, inFlight: number, first: boolean): void {
		this.lowest = first || this.remaining === undefined ? remaining : Math.min(this.lowest ?? remaining, remaining);
		this.remaining = this.lowest - inFlight;
	}

	/** The count the share of this process is taken from. */
	announced(inFlight: number): number {
		return this.lowest ?? (this.remaining ?? 0) + inFlight;
	}
}
