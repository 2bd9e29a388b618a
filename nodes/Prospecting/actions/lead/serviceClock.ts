/**
 * How far the service's clock is from ours, read from the Date headers of its answers, so a lead's createdAt
 * (the service's clock) can be compared with the moment this node sent the create (our clock).
 */

/**
 * The Date header counts whole seconds, and a service may keep createdAt in whole seconds too: a lead created
 * right after the send may carry a time up to this much before it.
 */
export const CLOCK_MARGIN_MS = 1000;

/**
 * When no answer carried a Date header, how far behind ours the service's clock is allowed to be. An older lead
 * created this close before the send and matching every field sent cannot be told from the one sent.
 */
export const UNMEASURED_CLOCK_ALLOWANCE_MS = 120_000;

/**
 * The offsets seen during one create (its answer and its searches). Each is (Date header) − (time the answer
 * arrived here): the header is truncated to the second and the answer travels after it is stamped, so every
 * reading is at or behind the service's true offset. The smallest one is the safe one to subtract.
 */
export class ServiceClock {
	private smallestOffsetMs: number | undefined;

	/** Pass as the request's `onServiceClock`. */
	readonly observe = (offsetMs: number): void => {
		if (!Number.isFinite(offsetMs)) return;
		this.smallestOffsetMs = Math.min(this.smallestOffsetMs ?? offsetMs, offsetMs);
	};

	/** The earliest createdAt (ms since epoch, the service's clock) a lead sent at `sentAt` (our clock) may carry. */
	earliestCreatedAt(sentAt: number): number {
		if (this.smallestOffsetMs === undefined) return sentAt - UNMEASURED_CLOCK_ALLOWANCE_MS;
		return sentAt + this.smallestOffsetMs - CLOCK_MARGIN_MS;
	}
}
