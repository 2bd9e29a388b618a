/**
 * The rate-limit floor: the least time any client can take for `requests` calls of one kind
 * (reads or writes) under a fixed window of `windowMs` that admits `limit` calls.
 *
 * Two figures are reported:
 * - `floorMs`: the definition the benchmarks are judged by: the windows that must pass
 *   (every full budget but the last forces the client to wait for the next window) plus the
 *   time of the requests themselves (all of them, at the per-request time measured in the same run).
 * - `strictFloorMs`: a tighter physical bound. Requests sent inside an earlier window overlap with
 *   that window's wait, so only the last window's requests add to the passing windows, and a window
 *   can never be shorter than the requests sent in it.
 * Dividing a wall time by `floorMs` gives the headline ratio; `strictFloorMs` shows how much of the
 * gap the definition itself absorbs.
 *
 * Where the service's windows are aligned to the clock, the work begins part-way through one: only
 * `firstWindowLeftMs` of that window must pass before the next budget opens.
 */
export interface FloorInput {
	requests: number;
	limit: number;
	windowMs: number;
	perRequestMs: number;
	/** Windows aligned to the clock: what is left of the window the work begins in (0 < left <= windowMs). */
	firstWindowLeftMs?: number;
}

export interface Floor {
	windowsThatMustPass: number;
	requestsTimeMs: number;
	floorMs: number;
	strictFloorMs: number;
}

export function rateLimitFloor({ requests, limit, windowMs, perRequestMs, firstWindowLeftMs = windowMs }: FloorInput): Floor {
	if (!Number.isFinite(requests) || requests < 0) throw new Error(`requests must be >= 0, got ${requests}`);
	if (!Number.isFinite(limit) || limit < 1) throw new Error(`limit must be >= 1, got ${limit}`);
	if (!Number.isFinite(windowMs) || windowMs <= 0) throw new Error(`windowMs must be > 0, got ${windowMs}`);
	if (!Number.isFinite(perRequestMs) || perRequestMs < 0) {
		throw new Error(`perRequestMs must be >= 0, got ${perRequestMs}`);
	}
	if (!Number.isFinite(firstWindowLeftMs) || firstWindowLeftMs <= 0 || firstWindowLeftMs > windowMs) {
		throw new Error(`firstWindowLeftMs must be > 0 and <= windowMs, got ${firstWindowLeftMs}`);
	}
	const budgets = Math.ceil(requests / limit);
	const windowsThatMustPass = Math.max(0, budgets - 1);
	const requestsTimeMs = requests * perRequestMs;
	// The first window to pass is only what was left of it when the work began.
	const shortenedBy = windowsThatMustPass > 0 ? windowMs - firstWindowLeftMs : 0;
	const floorMs = windowsThatMustPass * windowMs - shortenedBy + requestsTimeMs;
	const lastBatch = requests - windowsThatMustPass * limit;
	const fullWindowMs = Math.max(windowMs, limit * perRequestMs);
	const firstWindowMs = Math.max(firstWindowLeftMs, limit * perRequestMs);
	const strictFloorMs =
		windowsThatMustPass > 0 ? firstWindowMs + (windowsThatMustPass - 1) * fullWindowMs + lastBatch * perRequestMs : lastBatch * perRequestMs;
	return { windowsThatMustPass, requestsTimeMs, floorMs, strictFloorMs };
}

/** What is left at `atMs` of a window aligned to the clock (the service's windows with clock windows on). */
export function clockWindowLeftMs(atMs: number, windowMs: number): number {
	return windowMs - (atMs % windowMs);
}

/** How long from `atMs` until `phase` (0 to 1) of the way into a window aligned to the clock. */
export function untilIntoWindowMs(atMs: number, windowMs: number, phase: number): number {
	return (((phase * windowMs - (atMs % windowMs)) % windowMs) + windowMs) % windowMs;
}
