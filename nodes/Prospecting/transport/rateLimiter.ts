import { createHash } from 'node:crypto';

import { OthersEstimate } from './othersEstimate';
import { pause } from './pause';

/**
 * The service counts reads and writes per window and answers 429 past the limit. Every
 * execution in this n8n process that uses the same base URL and key shares one budget, so
 * two workflows walking pages at once do not both spend it. The budget is fed by the
 * X-RateLimit-* headers of every answer.
 */

export type CallKind = 'read' | 'write';

type Headers = Record<string, unknown>;

/** Margin after the announced reset for clock jitter; a reset in whole seconds is rounded up by the service or it answers 429, which is handled. */
const RESET_MARGIN_MS = 25;
/** Longest wait before a call on the strength of the headers alone; a 429 is the authority beyond. */
const MAX_PREEMPTIVE_WAIT_MS = 120_000;
/** The service's fixed window (60 s, per its documentation). */
export const DEFAULT_WINDOW_SECONDS = 60;

function header(headers: Headers | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (value === undefined || value === null) return undefined;
	return Array.isArray(value) ? String(value[0]) : String(value);
}

function numberHeader(headers: Headers | undefined, name: string): number | undefined {
	const raw = header(headers, name);
	if (raw === undefined || raw.trim() === '') return undefined;
	const value = Number(raw);
	return Number.isFinite(value) ? value : undefined;
}

/**
 * X-RateLimit-Reset as an absolute time in ms. The unit is not published, so it is read by
 * magnitude: epoch milliseconds, epoch seconds, or seconds from now; an HTTP date also works.
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

/** One call reserved with `acquire`: given back to `release` with its answer. */
export interface Reservation {
	/** How long the call waited for a window, in ms. */
	waitedMs: number;
	/** The window it was reserved in (windows are numbered as this budget sees them turn). */
	window: number;
}

export interface RateLimitState {
	limit?: number;
	remaining?: number;
	resetAt?: number;
	inFlight: number;
	/** Lowest X-RateLimit-Remaining announced in the current window. */
	lowestAnnounced?: number;
	/** Set while the window was closed by a 429: the time the service asked to wait until. */
	refusedUntil?: number;
	/**
	 * When the first answer of the current window arrived. The window began no later, so it ends no
	 * later than this plus the window's length: sooner than a reset announced in whole seconds.
	 */
	windowSeenAt?: number;
	/** The announced reset of the window this budget last turned from: answers up to it are stale. */
	endedResetAt?: number;
}

/** One budget (reads or writes) of one (base URL, key). Calls to `acquire` run one at a time. */
export class RateBudget {
	readonly state: RateLimitState = { inFlight: 0 };

	/** Length of the service's fixed window; 0 when unknown (the announced reset alone then counts). */
	windowMs = DEFAULT_WINDOW_SECONDS * 1000;

	private queue: Promise<unknown> = Promise.resolve();

	/** Other clients of the key (other workers): their calls per own call in this window, and this process's share. */
	readonly others = new OthersEstimate();

	/** No answer of the current window has come yet (the first, or one since it turned): one call asks. */
	private unknownWindow = true;

	/** The one call asking in a window nothing is known of is on its way. */
	private asking = false;

	/** How many times this budget's window has turned. */
	private window = 0;

	/** Callers waiting for the next answer (or given-back reservation) of this budget. */
	private answerWaiters: Array<() => void> = [];

	/** Runs `task` after every earlier caller's task, so the check-and-reserve step is atomic. */
	private async exclusive<T>(task: () => Promise<T>): Promise<T> {
		const run = this.queue.then(task, task);
		this.queue = run.catch(() => undefined);
		return await run;
	}

	/**
	 * Reserves one call, waiting first when the budget is spent until its window resets. While
	 * nothing is known of the window (no answer yet, or none since it turned), one call goes and the
	 * others wait for its headers. After that a call goes while this process's calls in flight are
	 * within its share of the remaining count; otherwise it waits for the next answer (or the window's
	 * end, if sooner) while calls are in flight, and for the window's end once none are.
	 */
	async acquire(onWait?: (ms: number) => void, signal?: AbortSignal): Promise<Reservation> {
		return await this.exclusive(async () => {
			let waited = 0;
			const state = this.state;
			for (;;) {
				this.rollWindow();
				if (this.unknownWindow) {
					// Each client asks once, so its first answer already counts the other clients' asks.
					if (!this.asking) {
						this.asking = true;
						break;
					}
					await this.nextAnswer(signal);
					continue;
				}
				if (state.remaining === undefined) break;
				if (state.remaining > 0 && state.inFlight < this.share()) break;
				// Calls on their way tell more: what the others have left, and room the lowest figure hides
				// (less every call in flight, it counts twice those the service counted before it).
				if (state.inFlight > 0) {
					await this.nextAnswerWithin(this.windowEnd(), signal);
					continue;
				}
				const windowEnd = this.windowEnd();
				if (windowEnd === undefined) {
					// Only an answer can tell when this window ends; with none to come, one call asks.
					if (state.inFlight === 0) break;
					await this.nextAnswer(signal);
					continue;
				}
				const wait = Math.min(windowEnd - Date.now() + RESET_MARGIN_MS, MAX_PREEMPTIVE_WAIT_MS);
				if (wait > 0) {
					onWait?.(wait);
					await pause(wait, signal);
					waited += wait;
				}
				// A call in flight may have been answered from the next window meanwhile: that answer stands.
				if (this.windowEnd() === windowEnd) this.startNextWindow();
			}
			this.others.reserved(this.announced(), state.inFlight === 0);
			if (state.remaining !== undefined) state.remaining -= 1;
			state.inFlight += 1;
			return { waitedMs: waited, window: this.window };
		});
	}

	/**
	 * Calls this process may have in flight: its share of the lowest remaining announced in this window,
	 * the other clients of the key taking theirs.
	 */
	private share(): number {
		return this.others.share(this.announced(), this.state.inFlight === 0);
	}

	/** The count the share is taken from: the lowest remaining announced in this window, or the budget's own count. */
	private announced(): number {
		const { lowestAnnounced, remaining, inFlight } = this.state;
		return lowestAnnounced ?? (remaining ?? 0) + inFlight;
	}

	/** Resolves at the next answer or given-back reservation; rejects as `pause` does when the execution is cancelled. */
	private async nextAnswer(signal?: AbortSignal): Promise<void> {
		const answer = new Promise<void>((resolve) => this.answerWaiters.push(resolve));
		if (!signal) return await answer;
		let onAbort: (() => void) | undefined;
		const aborted = new Promise<void>((resolve) => {
			onAbort = () => resolve();
			if (signal.aborted) resolve();
			else signal.addEventListener('abort', onAbort, { once: true });
		});
		try {
			// pause(0) raises n8n's cancellation error for an aborted signal; without that support, wait on.
			await Promise.race([
				answer,
				aborted.then(async () => await pause(0, signal)).then(async () => await answer),
			]);
		} finally {
			if (onAbort) signal.removeEventListener('abort', onAbort);
		}
	}

	/**
	 * Resolves at the next answer, or at the window's end when that comes first: a slow call in flight
	 * does not hold the others past the turn of the window.
	 */
	private async nextAnswerWithin(windowEnd: number | undefined, signal?: AbortSignal): Promise<void> {
		if (windowEnd === undefined) return await this.nextAnswer(signal);
		// The timer's own signal ends its wait once the answer has come (a cancelled execution ends through nextAnswer).
		const timer = new AbortController();
		try {
			await Promise.race([
				this.nextAnswer(signal),
				pause(Math.max(0, windowEnd - Date.now() + RESET_MARGIN_MS), timer.signal).catch(() => undefined),
			]);
		} finally {
			timer.abort();
		}
	}

	private wakeAnswerWaiters(): void {
		const waiters = this.answerWaiters;
		this.answerWaiters = [];
		for (const wake of waiters) wake();
	}

	/**
	 * When the current window ends: the announced reset, or sooner the window's length after its
	 * first answer. A window closed by a 429 ends when the service asked to wait until.
	 */
	private windowEnd(): number | undefined {
		const { resetAt, refusedUntil, windowSeenAt } = this.state;
		if (resetAt === undefined) return undefined;
		if (refusedUntil !== undefined || windowSeenAt === undefined || !(this.windowMs > 0))
			return resetAt;
		return Math.min(resetAt, windowSeenAt + this.windowMs);
	}

	/** A new window: the others are counted afresh. */
	private turnEstimate(): void {
		this.window += 1;
		this.others.turn();
	}

	/** Clears a window that has ended on the clock. */
	private rollWindow(): void {
		const windowEnd = this.windowEnd();
		if (windowEnd !== undefined && Date.now() >= windowEnd) this.startNextWindow();
	}

	/**
	 * The window has turned: the full limit is available again until headers say otherwise, less the
	 * calls still in flight, which may reach the service in the new window.
	 */
	private startNextWindow(): void {
		const state = this.state;
		this.turnEstimate();
		this.unknownWindow = true;
		this.asking = false;
		state.remaining = state.limit === undefined ? undefined : state.limit - state.inFlight;
		state.endedResetAt = state.resetAt ?? state.endedResetAt;
		state.resetAt = undefined;
		state.lowestAnnounced = undefined;
		state.refusedUntil = undefined;
		state.windowSeenAt = undefined;
	}

	/**
	 * How long a call must still wait because an earlier call was refused with 429 and told to
	 * wait (0 when the budget is not held by a refusal). Lets a call fail at once when that wait
	 * exceeds its own maximum, instead of sitting it out.
	 */
	refusalWaitMs(now = Date.now()): number {
		const state = this.state;
		if (state.refusedUntil === undefined || state.resetAt === undefined) return 0;
		if ((state.remaining ?? 0) > 0 || now >= state.resetAt) return 0;
		return Math.min(state.resetAt - now + RESET_MARGIN_MS, MAX_PREEMPTIVE_WAIT_MS);
	}

	/** Records the answer of a call reserved with `acquire`. */
	release(headers: Headers | undefined, status: number | undefined, reservation?: Reservation): void {
		this.record(headers, status, reservation);
		// An answer that told nothing of the current window (one from before it turned) lets another call ask.
		if (this.unknownWindow) this.asking = false;
		this.wakeAnswerWaiters();
	}

	private record(
		headers: Headers | undefined,
		status: number | undefined,
		reservation: Reservation | undefined,
	): void {
		const state = this.state;
		state.inFlight = Math.max(0, state.inFlight - 1);
		const now = Date.now();
		const limit = numberHeader(headers, 'x-ratelimit-limit');
		const remaining = numberHeader(headers, 'x-ratelimit-remaining');
		const resetAt = parseResetHeader(header(headers, 'x-ratelimit-reset'), now);
		if (limit !== undefined) state.limit = limit;
		// An answer from a window that has ended (counted before the turn, answered after it) says nothing of the new one.
		const endedBefore = state.resetAt ?? (state.endedResetAt ?? -Infinity) + 1000;
		const stale = resetAt !== undefined && resetAt < endedBefore - 500;
		if (remaining !== undefined && !stale) {
			const newWindow =
				resetAt !== undefined && (state.resetAt === undefined || resetAt > state.resetAt + 500);
			if (newWindow || resetAt === undefined || state.remaining === undefined) {
				// An answer from a window this budget has not turned to yet: the estimate of the others starts afresh.
				if (newWindow && state.resetAt !== undefined) this.turnEstimate();
				if (newWindow) state.windowSeenAt = now;
				// Calls still in flight were reserved here but may not be counted by the service yet.
				state.lowestAnnounced = remaining;
				state.remaining = remaining - state.inFlight;
			} else {
				state.lowestAnnounced = Math.min(state.lowestAnnounced ?? remaining, remaining);
				// Answers may arrive in another order than the service counted the calls, so the lowest figure
				// announced in this window is the best one. Every call counted after it is still in flight
				// (an answered one would have announced a lower figure), so subtracting those never overstates.
				state.remaining = state.lowestAnnounced - state.inFlight;
			}
		}
		if (resetAt !== undefined && !stale) state.resetAt = resetAt;
		if (!stale) {
			this.unknownWindow = false;
			this.others.answered();
		}
		// A counted call of this window tells how many calls the others made before it. A call reserved before
		// the window turned may be counted in it: its reset says so when the service sends one.
		const ofThisWindow = reservation !== undefined && (resetAt !== undefined ? !stale : reservation.window === this.window);
		if (ofThisWindow && status !== 429 && remaining !== undefined) this.others.observe(state.limit, remaining);
		if (status === 429) {
			const retryAfter = parseRetryAfter(header(headers, 'retry-after'), now);
			state.remaining = 0;
			const until = retryAfter !== undefined ? now + retryAfter : resetAt;
			if (until !== undefined) {
				state.resetAt = Math.max(state.resetAt ?? 0, until);
				state.refusedUntil = state.resetAt;
			}
		}
	}

	/** Gives back a reservation whose call was never answered. */
	cancel(): void {
		this.state.inFlight = Math.max(0, this.state.inFlight - 1);
		// It may have been the call asking in a window nothing is known of: the next one asks instead.
		this.asking = false;
		this.wakeAnswerWaiters();
	}
}

/** Budgets per (base URL, key hash, kind), in module state: shared by every execution of this process. */
const budgets = new Map<string, RateBudget>();

/** Identifies the account without keeping the key itself in memory longer than the call. */
export function budgetKey(baseUrl: string, apiKey: string): string {
	const digest = createHash('sha256').update(apiKey).digest('hex').slice(0, 32);
	return `${baseUrl}|${digest}`;
}

/** The credential's window in ms; credentials saved before the setting existed get the documented 60 s. */
function windowLengthMs(windowSeconds: unknown): number {
	if (windowSeconds === undefined || windowSeconds === null || windowSeconds === '') {
		return DEFAULT_WINDOW_SECONDS * 1000;
	}
	const seconds = Number(windowSeconds);
	if (!Number.isFinite(seconds) || seconds < 0) return DEFAULT_WINDOW_SECONDS * 1000;
	return seconds * 1000;
}

export function getBudget(
	baseUrl: string,
	apiKey: string,
	kind: CallKind,
	windowSeconds?: unknown,
): RateBudget {
	const key = `${budgetKey(baseUrl, apiKey)}|${kind}`;
	let budget = budgets.get(key);
	if (!budget) {
		budget = new RateBudget();
		budgets.set(key, budget);
	}
	budget.windowMs = windowLengthMs(windowSeconds);
	return budget;
}

/** Forgets every budget (tests start each scenario from a clean process state). */
export function resetBudgets(): void {
	budgets.clear();
}

export function callKind(method: string): CallKind {
	const upper = method.toUpperCase();
	return upper === 'GET' || upper === 'HEAD' ? 'read' : 'write';
}

export { header as readHeader };
