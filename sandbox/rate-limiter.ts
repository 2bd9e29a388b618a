/**
 * Fixed-window rate limiter. Each (key, kind) pair has its own window, which opens at the first request after the
 * previous one closed and lasts windowSeconds, or, with `clockWindows`, is aligned to the clock (a spike then begins
 * part-way into one); reads and writes are counted apart. The spec documents the X-RateLimit-* headers on 429 answers
 * only: `rateHeaders: 'on-429'` sends them there alone.
 */
import type { RateHeaders, ResetFormat } from './types';

export type RequestKind = 'read' | 'write';

export interface RateLimitConfig {
	windowSeconds: number;
	readLimit: number;
	writeLimit: number;
	enabled: boolean;
	resetFormat: ResetFormat;
	/** Windows start at whole multiples of the window's length on the clock, not at a key's first call. */
	clockWindows: boolean;
	/** On which answers X-RateLimit-* are sent; Retry-After always comes with a 429. */
	rateHeaders: RateHeaders;
	/** How far the service's clock is ahead (negative: behind): its epoch resets, Date header and createdAt show it. */
	clockOffsetMs: number;
	/** Whether answers carry a Date header. */
	dateHeader: boolean;
}

export interface RateDecision {
	allowed: boolean;
	headers: Record<string, string>;
	/** Whole seconds until the window closes, at least 1. */
	retryAfterSeconds: number;
}

interface Window {
	start: number;
	count: number;
}

export class RateLimiter {
	private windows = new Map<string, Window>();

	constructor(public config: RateLimitConfig) {}

	update(patch: Partial<RateLimitConfig>): void {
		for (const [key, value] of Object.entries(patch)) {
			if (value !== undefined) (this.config as unknown as Record<string, unknown>)[key] = value;
		}
		this.windows.clear();
	}

	clear(): void {
		this.windows.clear();
	}

	private window(bucket: string, now: number): Window {
		const windowMs = this.config.windowSeconds * 1000;
		let window = this.windows.get(bucket);
		if (!window || now >= window.start + windowMs) {
			window = { start: this.config.clockWindows ? now - (now % windowMs) : now, count: 0 };
			this.windows.set(bucket, window);
		}
		return window;
	}

	/** Counts one request of `kind` for `bucket` (an API key, or the caller's address when the key is refused). */
	consume(bucket: string, kind: RequestKind, now = Date.now()): RateDecision {
		const limit = kind === 'read' ? this.config.readLimit : this.config.writeLimit;
		if (!this.config.enabled) {
			// Switched off: nothing is counted; the headers announce the full budget in a window that ends with the
			// current second, so a client that paces itself on them waits at most a second per `limit` calls.
			const second = Math.floor(now / 1000) * 1000;
			return this.decision({ start: second - this.config.windowSeconds * 1000 + 1000, count: 0 }, limit, true, now);
		}
		const window = this.window(`${kind}:${bucket}`, now);
		const allowed = window.count < limit;
		if (allowed) window.count++;
		return this.decision(window, limit, allowed, now);
	}

	/** The service's clock: the real one moved by clockOffsetMs. */
	serviceNow(now = Date.now()): number {
		return now + this.config.clockOffsetMs;
	}

	/** Headers for a forced 429 (fault injection): remaining 0, reset after `seconds`. */
	forced(seconds: number, kind: RequestKind, now = Date.now()): RateDecision {
		const limit = kind === 'read' ? this.config.readLimit : this.config.writeLimit;
		const window = { start: now - this.config.windowSeconds * 1000 + seconds * 1000, count: limit };
		return this.decision(window, limit, false, now);
	}

	private decision(window: Window, limit: number, allowed: boolean, now: number): RateDecision {
		const endMs = window.start + this.config.windowSeconds * 1000;
		const announcedEndMs = endMs + this.config.clockOffsetMs;
		const retryAfterSeconds = Math.max(1, Math.ceil((endMs - now) / 1000));
		let reset: string;
		switch (this.config.resetFormat) {
			case 'epoch-ms':
				reset = String(announcedEndMs);
				break;
			case 'delta-seconds':
				reset = String(retryAfterSeconds);
				break;
			default:
				reset = String(Math.ceil(announcedEndMs / 1000));
		}
		const headers: Record<string, string> =
			allowed && this.config.rateHeaders === 'on-429'
				? {}
				: {
						'X-RateLimit-Limit': String(limit),
						'X-RateLimit-Remaining': String(Math.max(0, limit - window.count)),
						'X-RateLimit-Reset': reset,
					};
		if (!allowed) headers['Retry-After'] = String(retryAfterSeconds);
		return { allowed, headers, retryAfterSeconds };
	}
}
