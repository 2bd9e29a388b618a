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
 */
export interface FloorInput {
	requests: number;
	limit: number;
	windowMs: number;
	perRequestMs: number;
}

export interface Floor {
	windowsThatMustPass: number;
	requestsTimeMs: number;
	floorMs: number;
	strictFloorMs: number;
}

export function rateLimitFloor({ requests, limit, windowMs, perRequestMs }: FloorInput): Floor {
	if (!Number.isFinite(requests) || requests < 0) throw new Error(`requests must be >= 0, got ${requests}`);
	if (!Number.isFinite(limit) || limit < 1) throw new Error(`limit must be >= 1, got ${limit}`);
	if (!Number.isFinite(windowMs) || windowMs <= 0) throw new Error(`windowMs must be > 0, got ${windowMs}`);
	if (!Number.isFinite(perRequestMs) || perRequestMs < 0) {
		throw new Error(`perRequestMs must be >= 0, got ${perRequestMs}`);
	}
	const budgets = Math.ceil(requests / limit);
	const windowsThatMustPass = Math.max(0, budgets - 1);
	const requestsTimeMs = requests * perRequestMs;
	const floorMs = windowsThatMustPass * windowMs + requestsTimeMs;
	const lastBatch = requests - windowsThatMustPass * limit;
	const fullWindowMs = Math.max(windowMs, limit * perRequestMs);
	const strictFloorMs = windowsThatMustPass * fullWindowMs + lastBatch * perRequestMs;
	return { windowsThatMustPass, requestsTimeMs, floorMs, strictFloorMs };
}
