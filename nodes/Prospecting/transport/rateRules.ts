import { headerValue } from '../helpers/headers';

/** The rate rules as pure functions of a budget's figures and the time (ms); [n]: rule n of docs/dev/rate-limits.md. */

/** [12] What the credential says for one kind of call: limit, window (0: not known), processes and the reset's unit. */
export interface RateSettings { limit: number; windowMs: number; processes: number; resetUnit: 'auto' | Unit }
type Unit = 'epochSeconds' | 'epochMs' | 'secondsFromNow';
export type HoldReason = 'Retry-After' | 'X-RateLimit-Reset' | 'doubling';
/** [5] [6] A window of the service as answers tell it: its end, until when it is spent (0: not), own and other clients' calls. */
export interface ServiceWindow { end: number; spentUntil: number; own: number; others: number }

/** What a budget knows; only the budget changes it. */
export interface BudgetFigures {
	inFlight: number;
	/** [2] Until when each answered call counts, soonest first. */
	countedUntil: number[];
	/** [3] [4] The latest window end known (0: none); until when calls keep in step with the service's windows. */
	windowEnd: number; inStepUntil: number;
	/** [7] A 429's hold: its end, its length (0 once a call succeeded), what set it, and whether the key refused again. */
	hold: { until: number; ms: number; by: HoldReason; again: boolean };
	/** [1] X-RateLimit-Limit (Infinity: none). */
	announcedLimit: number;
	/** [5] [6] The current window, and the ones before it, latest first. */
	window: ServiceWindow; earlierWindows: ServiceWindow[];
}

/** HTTP dates (Date, Retry-After, a reset as a date) come in whole seconds; so does the shortest hold. */
export const DATE_RESOLUTION_MS = 1000;
/** [7] [8] The window assumed where the credential's is 0. */
export const UNKNOWN_WINDOW_MS = 60_000;
/** [7] No hold is longer (the default Max Rate Limit Wait), however a header reads or a hold doubles. */
export const LONGEST_HOLD_MS = 300_000;
/** [6] Windows whose part counts (this process's part of one is larger where the others' calls came after its own). */
export const WINDOWS_REMEMBERED = 4;
/** [4] A call sent this soon after a window's end went as the next began (a whole-second hold ends a second late). */
export const IN_STEP_MS = 2 * DATE_RESOLUTION_MS;
/** [6] Left at 1 beside other clients, the last call of a part goes this far into the window: the others' are counted by then. */
export const LAST_CALL_AT = 0.5;

const windowOf = (settings: RateSettings): number => (settings.windowMs > 0 ? settings.windowMs : UNKNOWN_WINDOW_MS);

/** [6] The limit the service counts a window's calls against: the one it announces, else the credential's. */
export const countedLimit = (announcedLimit: number, settings: RateSettings): number => (announcedLimit < Infinity ? announcedLimit : settings.limit);

/** [1] [6] The lowest limit known, divided by the processes, and at most this process's part of a window; at least 1. */
export function paceOf(figures: BudgetFigures, settings: RateSettings): number {
	const limit = Math.min(settings.limit, figures.announcedLimit);
	// Stated: what the other clients left of the limit the service counts against (the other workers keep to theirs, so
	// it stays at limit ÷ processes; a credential may state less to leave room for others). Left at 1: its share of what
	// was counted, to the nearest call (rounding down loses up to a call a worker a window, for good).
	const counting = countedLimit(figures.announcedLimit, settings);
	const parts = [figures.window, ...figures.earlierWindows].map(({ own, others }) =>
		own === 0 ? limit : settings.processes > 1 ? counting - others : Math.round((limit * own) / (own + others)),
	);
	return Math.max(1, Math.min(Math.floor(limit / settings.processes), ...parts));
}

/**
 * When the call at the head of the queue may go: `now`, a later time, or Infinity (when an answer comes). [7] Not
 * while a 429 holds; one at a time while the key refuses again. [5] Not in a spent window. [2] While fewer than a
 * pace of calls are on their way or counted; [4] one more, alone, while no end is ahead and the budget is out of step.
 * [6] The last call of a part, left at 1 beside other clients, not before LAST_CALL_AT of the window, nor past `latest`.
 */
export function readyAt(figures: BudgetFigures, settings: RateSettings, now: number, latest = Infinity): number {
	const { inFlight, hold, window, windowEnd } = figures;
	if (now < hold.until) return hold.until;
	const pace = paceOf(figures, settings);
	if (inFlight >= (hold.again ? 1 : pace)) return Infinity;
	if (now < window.spentUntil) return window.spentUntil;
	const counted = figures.countedUntil.filter((until) => until > now);
	const allowed = Math.max(windowEnd, figures.inStepUntil) > now || inFlight > 0 ? pace : pace + 1;
	const at = counted.length + inFlight < allowed ? now : counted[counted.length + inFlight - allowed];
	// A process whose calls all go as a window opens answers before the others' calls are counted, so sees fewer of
	// them than there are and takes more each window; its last call later sees them. Sharing: its share is in force (a
	// window of its answers and others'). The window under way ends at the latest end known, or began there (a time
	// already past holds nothing).
	const sharing = settings.processes === 1 && [window, ...figures.earlierWindows].some(({ own, others }) => own > 0 && others > 0);
	const start = windowEnd > now ? windowEnd - windowOf(settings) : windowEnd;
	const last = sharing && pace >= 2 && counted.length + inFlight === pace - 1;
	return last ? Math.max(at, Math.min(start + LAST_CALL_AT * windowOf(settings), latest)) : at;
}

/**
 * [2] [3] An answered call counts a window after its answer (0: not at all), or until its reset or a known end two
 * resolutions or more after it, where sooner: a reset in whole seconds read against a Date in whole seconds may end
 * that late, and a call answered closer to it may have been counted in the next window.
 */
export function countedUntil(answer: RateAnswer | undefined, settings: RateSettings, windowEnd: number, now: number): number {
	const end = answer?.resetAt ?? (windowEnd >= now + 2 * DATE_RESOLUTION_MS ? windowEnd : Infinity);
	return Math.min(end, settings.windowMs > 0 || end === Infinity ? now + settings.windowMs : Infinity);
}

/** What one answer says of the rate limit, its times on this machine's clock. */
export interface RateAnswer { status: number; limit?: number; remaining?: number; resetAt?: number; retryAfterMs?: number }

/** A header's number; a blank header is absent, never 0. */
const numberOf = (raw?: string): number | undefined => (raw && Number.isFinite(Number(raw)) ? Number(raw) : undefined);

/**
 * [8] One answer's rate headers. Its times are read against its Date where that is a resolution or more from this
 * clock, and believed only from a resolution before it to a window and a resolution after: a reset in the
 * credential's unit, or in Auto the first unit that places it there; Retry-After in seconds or as a date. Where one
 * counts from now (seconds) and the other is on the service's clock (a date, an epoch reset), more than a resolution
 * apart, that clock is off by more than its Date shows: only the one from now is believed.
 */
export function readRateAnswer(headers: Record<string, unknown> | undefined, status: number, now: number, settings: RateSettings): RateAnswer {
	const read = (name: string) => String(headerValue(headers, name) ?? '').trim() || undefined;
	const date = Date.parse(String(read('date')));
	const serviceNow = Number.isFinite(date) && Math.abs(date - now) >= DATE_RESOLUTION_MS ? date : now;
	const local = (at: number) => (at >= serviceNow - DATE_RESOLUTION_MS && at <= serviceNow + windowOf(settings) + DATE_RESOLUTION_MS ? at - serviceNow + now : undefined);
	const answer: RateAnswer = { status, limit: numberOf(read('x-ratelimit-limit')), remaining: numberOf(read('x-ratelimit-remaining')) };
	const [retryAfter, reset] = [read('retry-after'), numberOf(read('x-ratelimit-reset'))];
	const retryFromNow = numberOf(retryAfter) !== undefined;
	const retryAt = local(retryFromNow ? serviceNow + Math.max(0, Number(retryAfter)) * 1000 : Date.parse(String(retryAfter)));
	const times: Record<Unit, number> = { epochSeconds: Number(reset) * 1000, epochMs: Number(reset), secondsFromNow: serviceNow + Number(reset) * 1000 };
	const unit = reset === undefined ? undefined : (settings.resetUnit === 'auto' ? (Object.keys(times) as Unit[]) : [settings.resetUnit]).find((u) => local(times[u]) !== undefined);
	const resetAt = unit && local(times[unit]);
	const apart = retryAt !== undefined && resetAt !== undefined && retryFromNow !== (unit === 'secondsFromNow') && Math.abs(retryAt - resetAt) > DATE_RESOLUTION_MS;
	if (retryAt !== undefined && !(apart && !retryFromNow)) answer.retryAfterMs = Math.max(0, retryAt - now);
	if (resetAt !== undefined && !(apart && retryFromNow)) answer.resetAt = resetAt;
	return answer;
}

/**
 * [7] A 429 holds the key until its Retry-After or its reset, whichever comes first; where it gives neither, twice the
 * last hold when the key refused again (a window the first time); from a resolution to LONGEST_HOLD_MS.
 */
export function holdAfterRefusal(answer: RateAnswer, settings: RateSettings, now: number, againAfterMs: number): { ms: number; by: HoldReason } {
	const [reset, retry] = [(answer.resetAt ?? Infinity) - now, answer.retryAfterMs ?? Infinity];
	const [ms, by]: [number, HoldReason] =
		retry < Infinity && retry <= reset ? [retry, 'Retry-After'] : reset < Infinity ? [reset, 'X-RateLimit-Reset'] : [againAfterMs > 0 ? 2 * againAfterMs : windowOf(settings), 'doubling'];
	return { ms: Math.min(Math.max(ms, DATE_RESOLUTION_MS), LONGEST_HOLD_MS), by };
}

/**
 * [5] [6] The window after an answer of this process that shows Remaining: one ending half a window or more later
 * starts afresh, one its reset ends earlier is left as it was (without a reset no answer tells it is of an earlier
 * window, nor ends a spent one); a 2xx's Remaining 0 spends it until its end, or without a reset a window after the
 * answer (a 429 holds as rule 7 says); the other clients' calls are what the service counted beyond this process's answered calls and those
 * on their way.
 */
export function windowAfter(window: ServiceWindow, answer: RateAnswer & { remaining: number }, inFlight: number, limit: number, settings: RateSettings, now: number): ServiceWindow {
	const end = Math.min(answer.resetAt ?? Infinity, now + windowOf(settings));
	if (answer.resetAt !== undefined && end < window.end - windowOf(settings) / 2) return window;
	// Without a reset, a window after the answer is only the latest it ends: a spent window stays spent as long.
	const spentUntil = answer.resetAt === undefined ? window.spentUntil : 0;
	const next = end >= window.end + windowOf(settings) / 2 ? { end, spentUntil, own: 0, others: 0 } : { ...window };
	if (answer.status !== 429 && answer.remaining <= 0) next.spentUntil = Math.max(next.spentUntil, answer.resetAt !== undefined ? next.end : end);
	next.own += answer.status === 429 ? 0 : 1;
	next.others = Math.max(next.others, limit - answer.remaining - next.own - inFlight);
	return next;
}
