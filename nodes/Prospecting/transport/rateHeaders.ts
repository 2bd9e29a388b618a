/**
 * The rate-limit headers of one answer, read once. The service documents Retry-After and X-RateLimit-* on its 429
 * answers; whether it sends X-RateLimit-* on other answers too is not documented, so every field is optional.
 */

type Headers = Record<string, unknown> | undefined;

/** What one answer says of the rate limit; times are absolute, in ms of this machine's clock. */
export interface RateAnswer {
	status?: number;
	limit?: number;
	remaining?: number;
	/** When the service's current window ends (X-RateLimit-Reset). */
	resetAt?: number;
	/** How long the service asked to wait (Retry-After), in ms. */
	retryAfterMs?: number;
}

export function readHeader(headers: Headers, name: string): string | undefined {
	if (!headers) return undefined;
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (value === undefined || value === null) return undefined;
	return Array.isArray(value) ? String(value[0]) : String(value);
}

function numberHeader(headers: Headers, name: string): number | undefined {
	const raw = readHeader(headers, name);
	if (raw === undefined || raw.trim() === '') return undefined;
	const value = Number(raw);
	return Number.isFinite(value) ? value : undefined;
}

/**
 * X-RateLimit-Reset as an absolute time in ms. Its unit is not published, so it is read by magnitude: epoch
 * milliseconds, epoch seconds, or seconds from now; an HTTP date also works.
 */
export function parseResetHeader(raw: string | undefined, now = Date.now()): number | undefined {
	if (raw === undefined || raw.trim() === '') return undefined;
	const value = Number(raw);
	if (Number.isFinite(value)) {
		if (value >= 1e11) return value; // epoch milliseconds (1e11 ms is 1973)
		if (value >= 1e8) return value * 1000; // epoch seconds (1e8 s of delay would be 3 years)
		return now + Math.max(0, value) * 1000; // seconds from now
	}
	const date = Date.parse(raw);
	return Number.isFinite(date) ? date : undefined;
}

/** Retry-After in ms: seconds, or an HTTP date. */
export function parseRetryAfter(raw: string | undefined, now = Date.now()): number | undefined {
	if (raw === undefined || raw.trim() === '') return undefined;
	const value = Number(raw);
	if (Number.isFinite(value)) return Math.max(0, value * 1000);
	const date = Date.parse(raw);
	return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

export function readRateAnswer(headers: Headers, status?: number, now = Date.now()): RateAnswer {
	return {
		status,
		limit: numberHeader(headers, 'x-ratelimit-limit'),
		remaining: numberHeader(headers, 'x-ratelimit-remaining'),
		resetAt: parseResetHeader(readHeader(headers, 'x-ratelimit-reset'), now),
		retryAfterMs: parseRetryAfter(readHeader(headers, 'retry-after'), now),
	};
}
