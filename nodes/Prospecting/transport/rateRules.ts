import { headerValue } from '../helpers/headers';

/** The rate rules as pure functions of a budget's figures and the time (ms); [n]: rule n of docs/rate-limits.md. */

/** [6] The credential's Reads or Writes per Window, the window (0: not known), processes and reset unit, read per call. */
export interface RateSettings { limit: number; windowMs: number; processes: number; resetUnit: ResetUnit }

export type ResetUnit = 'auto' | Unit;
type Unit = 'epochSeconds' | 'epochMs' | 'secondsFromNow';

/**
 * What a budget knows: calls in flight, from when its latest answers count (a window on; oldest first), when its hold
 * ends, the last refusal's hold (0 once a call succeeded), the latest window end known (0: none), X-RateLimit-Limit,
 * and until when its calls keep in step with the service's windows (0: never).
 */
export interface BudgetFigures {
	inFlight: number; countedFrom: number[]; heldUntil: number; holdMs: number; resetAt: number; announcedLimit: number;
	inStepUntil: number;
}

/** HTTP dates (Date, Retry-After, a reset as a date) come in whole seconds. */
export const DATE_RESOLUTION_MS = 1000;
/** [4] A 429 without Retry-After or a reset where the window is set to 0 holds the key this long. */
export const UNKNOWN_WINDOW_HOLD_MS = 60_000;
/**
 * [10] A call sent this soon after a window's end went as the next window began: the calls held for the end go at
 * once (a 429's hold, in whole seconds, ends up to a second after it). One sent later may follow a pause.
 */
export const IN_STEP_MS = 2 * DATE_RESOLUTION_MS;
/** [4] The shortest hold after a 429 (the spec's Retry-After counts whole seconds), so a refused key never spins. */
export const MIN_HOLD_MS = 1000;

/** [1] Calls this process may have counted in any window: its part of the lowest limit it knows. */
export function paceOf(settings: RateSettings, announcedLimit: number): number {
	return Math.max(1, Math.floor(Math.min(settings.limit, announcedLimit) / Math.max(1, settings.processes)));
}

/**
 * When the call at the head of the queue may go: `now`, a later time, or Infinity (when an answer comes).
 * [4] Held by a refusal or a spent window until its end; one call at a time after a refusal until one succeeds.
 * [1] Fewer than a pace of calls on their way or answered within a window's length, so no fixed window, whatever its
 * phase, holds more than a pace of them. [3] Answers before a window's end that has passed are of the ended window.
 * [10] While no window's end is ahead and the budget is not in step, one call more than the pace goes, alone: the
 * service's refusal of it tells where its windows end.
 */
export function readyAt(figures: BudgetFigures, settings: RateSettings, now: number): number {
	if (now < figures.heldUntil) return figures.heldUntil;
	const pace = paceOf(settings, figures.announcedLimit);
	if (figures.inFlight >= (figures.holdMs > 0 ? 1 : pace)) return Infinity;
	if (!(settings.windowMs > 0)) return now;
	const ended = figures.resetAt <= now ? figures.resetAt : -Infinity;
	const counted = figures.countedFrom.filter((at) => at > Math.max(now - settings.windowMs, ended));
	const allowed = Math.max(figures.resetAt, figures.inStepUntil) > now || figures.inFlight > 0 ? pace : pace + 1;
	const mustAgeOut = counted.length + figures.inFlight - allowed;
	if (mustAgeOut < 0) return now;
	const agedOut = counted[mustAgeOut] + settings.windowMs;
	return figures.resetAt > now ? Math.min(agedOut, figures.resetAt) : agedOut;
}

/** What one answer says of the rate limit, its times read on this machine's clock, and its reset's unit. */
export interface RateAnswer {
	status: number; limit?: number; remaining?: number; resetAt?: number; retryAfterMs?: number; resetUnit?: ResetUnit;
}

type Headers = Record<string, unknown> | undefined;

const readHeader = (headers: Headers, name: string): string | undefined => String(headerValue(headers, name) ?? '').trim() || undefined;
/** A header's number; blank headers are absent (readHeader), so Number('') never reads 0 here. */
const numberOf = (raw?: string): number | undefined => (Number.isFinite(Number(raw)) ? Number(raw) : undefined);

/** A reset's value as a time of the service's clock, in the unit given. */
export function resetTime(value: number, unit: Unit, serviceNow: number): number {
	if (unit === 'epochSeconds') return value * 1000;
	if (unit === 'epochMs') return value;
	return serviceNow + value * 1000;
}

/**
 * [2] The reset's unit (the spec does not show it): the first unit that puts it within a window after the service's
 * `Date`, never its magnitude alone; undefined when none does, and then the reset is not used.
 */
export function resetUnitOf(value: number, serviceNow: number, windowMs: number): Unit | undefined {
	const horizon = (windowMs > 0 ? windowMs : UNKNOWN_WINDOW_HOLD_MS) + DATE_RESOLUTION_MS;
	const ahead = (unit: Unit) => resetTime(value, unit, serviceNow) - serviceNow;
	return (['epochSeconds', 'epochMs', 'secondsFromNow'] as const).find((unit) => ahead(unit) >= -DATE_RESOLUTION_MS && ahead(unit) <= horizon);
}

/**
 * [5] The rate headers of one answer. Its times (Retry-After as a date, the reset) are read against its `Date` where
 * that differs from this clock by more than its resolution: a service clock ahead or behind is read as it is.
 */
export function readRateAnswer(headers: Headers, status: number, now: number, unit: ResetUnit, windowMs: number): RateAnswer {
	const date = Date.parse(String(readHeader(headers, 'date')));
	const serviceNow = Number.isFinite(date) && Math.abs(date - now) >= DATE_RESOLUTION_MS ? date : now;
	const toLocal = (serviceTime: number) => serviceTime - serviceNow + now;
	const [limit, remaining] = [numberOf(readHeader(headers, 'x-ratelimit-limit')), numberOf(readHeader(headers, 'x-ratelimit-remaining'))];
	const answer: RateAnswer = { status, limit, remaining };
	const retryAfter = readHeader(headers, 'retry-after');
	const [seconds, at] = [numberOf(retryAfter), Date.parse(String(retryAfter))];
	if (seconds !== undefined) answer.retryAfterMs = Math.max(0, seconds * 1000);
	else if (Number.isFinite(at)) answer.retryAfterMs = Math.max(0, toLocal(at) - now);
	const reset = numberOf(readHeader(headers, 'x-ratelimit-reset'));
	const resetUnit = reset === undefined ? undefined : unit === 'auto' ? resetUnitOf(reset, serviceNow, windowMs) : unit;
	if (resetUnit !== undefined) Object.assign(answer, { resetAt: toLocal(resetTime(reset as number, resetUnit as Unit, serviceNow)), resetUnit });
	return answer;
}

/**
 * [4] How long a 429 holds the key: the first present of Retry-After, the reset, else one window (60 s where it is
 * set to 0); twice the last hold when the refused call went after it (consecutive refusals of the key).
 */
export function holdAfterRefusal(answer: RateAnswer, windowMs: number, now: number, consecutive: number): number {
	const window = windowMs > 0 ? windowMs : UNKNOWN_WINDOW_HOLD_MS;
	const asked = answer.retryAfterMs ?? (answer.resetAt !== undefined ? answer.resetAt - now : window);
	return Math.max(asked, MIN_HOLD_MS, 2 * consecutive);
}
