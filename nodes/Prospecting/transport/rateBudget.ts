import { budgetKey } from '../helpers/account';
import { leaveIfCancelled, pause } from './pause';
import { IN_STEP_MS, holdAfterRefusal, readyAt, type BudgetFigures, type RateAnswer, type RateSettings, type ResetUnit } from './rateRules';

export type CallKind = 'read' | 'write';

/** The service's documented limits, assumed where a credential leaves them unset. */
export const DEFAULT_WINDOW_SECONDS = 60;
export const DEFAULT_LIMITS: Record<CallKind, number> = { read: 200, write: 100 };
/** [9] A budget unused this many windows is dropped: its figures are of windows long ended. */
const IDLE_WINDOWS = 3;
/** Node timers run at most this long; a longer wait looks again after it. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** The call could go only later than its deadline allows (`neededMs` undefined: after the calls ahead of it). */
export class RateWaitTooLong extends Error {
	constructor(readonly neededMs?: number) { super(`The rate limit allows this call ${neededMs === undefined ? 'later' : `in ${Math.round(neededMs)} ms`}`); }
}

/** A call let go by `acquire`, and when it went. */
export interface Reservation { at: number }
interface Waiter { wake: () => void }

/**
 * One budget (reads or writes) of one account, shared by every execution of this process: a queue in the order calls
 * came (a refused call back at its head) whose head goes when the rules say.
 */
export class RateBudget {
	private readonly queue: Waiter[] = [];
	/** What the rules read (rateRules.ts › BudgetFigures); only this class changes it. */
	private readonly state: BudgetFigures = { inFlight: 0, countedFrom: [], heldUntil: 0, holdMs: 0, resetAt: 0, announcedLimit: Infinity, inStepUntil: 0 };
	/** [2] The reset's unit, decided by the first answer that shows it. */
	private resetUnit?: ResetUnit;

	figures = (): Readonly<BudgetFigures> => this.state;

	/** [2] The unit to read this budget's resets in: the credential's, or in auto the one decided. */
	unitFor = (settings: RateSettings): ResetUnit => (settings.resetUnit === 'auto' ? (this.resetUnit ?? 'auto') : settings.resetUnit);

	/**
	 * [8] Waits for this call's turn (`first`: a refused call's place at the head) and the rules, leaving at once when
	 * its execution is cancelled; [7] fails with `RateWaitTooLong` when it could go only after `deadlineAt`.
	 */
	async acquire(settings: RateSettings, options: { signal?: AbortSignal; deadlineAt?: number; first?: boolean } = {}): Promise<Reservation> {
		const { signal, deadlineAt } = options;
		const me: Waiter = { wake: () => undefined };
		this.queue.splice(options.first ? 0 : this.queue.length, 0, me);
		this.queue[1]?.wake();
		try {
			for (;;) {
				if (signal?.aborted) await leaveIfCancelled(signal); // no await otherwise: the sleep below sees a later abort
				const now = Date.now();
				const at = this.queue[0] === me ? readyAt(this.state, settings, now) : Infinity;
				if (at <= now) break;
				if (deadlineAt !== undefined && (now >= deadlineAt || (at !== Infinity && at > deadlineAt))) {
					throw new RateWaitTooLong(at === Infinity ? undefined : at - now);
				}
				await this.sleep(me, Math.min(at, deadlineAt ?? Infinity) - now, signal);
			}
		} finally {
			this.queue.splice(this.queue.indexOf(me), 1);
			this.queue[0]?.wake();
		}
		this.state.inFlight += 1;
		return { at: Date.now() };
	}

	/** Sleeps until `ms` pass, the budget changes (`wake`), or the execution is cancelled. */
	private async sleep(me: Waiter, ms: number, signal?: AbortSignal): Promise<void> {
		const woken = new AbortController();
		const wake = new Promise<void>((resolve) => (me.wake = () => resolve(woken.abort())));
		signal?.addEventListener('abort', me.wake, { once: true });
		await Promise.race([pause(Math.min(ms, LONGEST_TIMER_MS), woken.signal).catch(() => undefined), wake]);
		signal?.removeEventListener('abort', me.wake);
		await leaveIfCancelled(signal);
	}

	/** Records the answer of `reservation`'s call, or of none; without an answer the call is given back (it may have counted). */
	settle(reservation: Reservation | undefined, answer: RateAnswer | undefined, settings: RateSettings, now = Date.now()): void {
		const f = this.state;
		if (reservation) {
			f.inFlight = Math.max(0, f.inFlight - 1);
			// [3] Counted a window from its answer, or to its window's end where the answer tells it sooner, in order; [9]
			// bounded: no pace is more than the credential's limit, and one call more goes only to learn the window.
			const from = Math.min(now, (answer?.resetAt ?? Infinity) - settings.windowMs);
			f.countedFrom.splice(f.countedFrom.filter((at) => at <= from).length, 0, from);
			if (f.countedFrom.length > settings.limit + 1) f.countedFrom.shift();
		}
		this.queue[0]?.wake();
		if (!answer) return;
		if (answer.limit !== undefined && answer.limit > 0) f.announcedLimit = answer.limit;
		if (answer.resetUnit !== undefined) this.resetUnit ??= answer.resetUnit;
		// [10] A call sent as a window began keeps the budget in step: its window ends at most a window after its answer.
		const lastEnd = Math.max(f.resetAt, f.inStepUntil);
		const sinceEnd = reservation ? reservation.at - lastEnd : -1;
		if (lastEnd > 0 && sinceEnd >= 0 && sinceEnd <= IN_STEP_MS) f.inStepUntil = now + settings.windowMs;
		// [3] Where the window ends: the reset; on a 429 Retry-After where sooner (a whole-second reset may be a second late).
		const retryAt = answer.status === 429 && answer.retryAfterMs !== undefined ? now + answer.retryAfterMs : Infinity;
		const endAt = Math.min(answer.resetAt ?? Infinity, retryAt);
		if (endAt < Infinity) f.resetAt = Math.max(f.resetAt, endAt);
		if (answer.status !== 429) {
			f.holdMs = 0;
			// [2] Nothing left holds until the reset, or a window after this answer where sooner, unless the pace already waits.
			const windowAfter = settings.windowMs > 0 ? now + settings.windowMs : Infinity;
			const paceWouldGo = readyAt(f, settings, now) <= now;
			if (answer.remaining === 0 && answer.resetAt !== undefined && paceWouldGo) f.heldUntil = Math.max(f.heldUntil, Math.min(answer.resetAt, windowAfter));
		} else {
			// [4] Doubled when the refused call went after the key's last refusal, not for calls already on their way.
			const sentAfterLast = reservation !== undefined && reservation.at >= f.heldUntil - f.holdMs;
			const hold = holdAfterRefusal(answer, settings.windowMs, now, sentAfterLast ? f.holdMs : 0);
			if (now + hold > f.heldUntil) [f.heldUntil, f.holdMs] = [now + hold, hold];
		}
	}

	/** How long a refusal or a spent window still holds the key. */
	heldForMs = (now = Date.now()): number => Math.max(0, this.state.heldUntil - now);

	isIdle(now: number, windowMs: number): boolean {
		const { countedFrom, inFlight, heldUntil } = this.state;
		const last = countedFrom[countedFrom.length - 1] ?? -Infinity;
		return this.queue.length === 0 && inFlight === 0 && now >= heldUntil && now - last > windowMs * IDLE_WINDOWS;
	}
}

/** Budgets per (base URL, key hash, kind), shared by every execution of this process; idle ones are dropped. */
const budgets = new Map<string, RateBudget>();

/** A credential's number setting; saved credentials from before it existed, or left empty, get the documented value. */
function setting(value: unknown, fallback: number, min: number): number {
	const number = value === undefined || value === null || value === '' ? NaN : Number(value);
	return Number.isFinite(number) && number >= min ? number : fallback;
}

const RESET_UNITS: ResetUnit[] = ['auto', 'epochSeconds', 'epochMs', 'secondsFromNow'];

/** [6] What the credential says for one kind of call, read on every call. */
export function rateSettings(credentials: Record<string, unknown>, kind: CallKind): RateSettings {
	const perWindow = kind === 'read' ? credentials.readsPerWindow : credentials.writesPerWindow;
	return {
		limit: Math.floor(setting(perWindow, DEFAULT_LIMITS[kind], 1)),
		windowMs: setting(credentials.rateLimitWindowSeconds, DEFAULT_WINDOW_SECONDS, 0) * 1000,
		processes: Math.floor(setting(credentials.clientsSharingKey, 1, 1)),
		resetUnit: RESET_UNITS.find((known) => known === credentials.rateLimitResetUnit) ?? 'auto',
	};
}

export function getBudget(baseUrl: string, apiKey: string, kind: CallKind, settings: RateSettings): RateBudget {
	const now = Date.now();
	for (const [key, old] of budgets) if (old.isIdle(now, settings.windowMs || DEFAULT_WINDOW_SECONDS * 1000)) budgets.delete(key);
	const key = `${budgetKey(baseUrl, apiKey)}|${kind}`;
	const budget = budgets.get(key) ?? new RateBudget();
	budgets.set(key, budget);
	return budget;
}

/** How many budgets this process keeps, and forgetting them (tests start from a clean process state). */
export const budgetCount = (): number => budgets.size;
export const resetBudgets = (): void => budgets.clear();
export const callKind = (method: string): CallKind => (['GET', 'HEAD'].includes(method.toUpperCase()) ? 'read' : 'write');
