/**
 * The rate rules of docs/dev/rate-limits.md, one describe each, as pure functions of a budget's figures and the time in
 * ms (no waiting), and the budget's queue on n8n's own sleep under a controlled clock. Each rule's tests read its named
 * constants, so a change of one rule's threshold fails that rule's tests alone. The fault schedules
 * (test/faults/rate-policy) prove the guarantees over random schedules; the engine tests (spike, rate-limit,
 * max-rate-limit-wait, tool-rate-wait, rate-defects) show the same rules where a user sees them.
 */
import { budgetKey } from '../../nodes/Prospecting/helpers/account';
import { Deadline } from '../../nodes/Prospecting/transport/deadline';
import { cancelSignal, leaveIfCancelled, pause } from '../../nodes/Prospecting/transport/pause';
import { DEFAULT_LIMITS, DEFAULT_WINDOW_SECONDS, IDLE_WINDOWS, RateBudget, RateBudgets, RateWaitTooLong, callKind, getBudget, rateSettings, resetBudgets } from '../../nodes/Prospecting/transport/rateBudget';
import {
	DATE_RESOLUTION_MS,
	IN_STEP_MS,
	LAST_CALL_AT,
	LONGEST_HOLD_MS,
	UNKNOWN_WINDOW_MS,
	WINDOWS_REMEMBERED,
	countedUntil,
	holdAfterRefusal,
	paceOf,
	readRateAnswer,
	readyAt,
	windowAfter,
	type BudgetFigures,
	type RateAnswer,
	type RateSettings,
} from '../../nodes/Prospecting/transport/rateRules';
import { onControlledClock } from '../../dev/harness/clock';
import { expectCancelledCallLeaves } from './rate-queue';

const T = Date.parse('2026-11-27T10:00:00.000Z');
const settings = (more: Partial<RateSettings> = {}): RateSettings => ({ limit: 3, windowMs: 60_000, processes: 1, resetUnit: 'auto', ...more });
const figures = (more: Partial<BudgetFigures> = {}): BudgetFigures => ({
	inFlight: 0,
	countedUntil: [],
	windowEnd: 0,
	inStepUntil: 0,
	hold: { until: 0, ms: 0, by: 'doubling', again: false },
	announcedLimit: Infinity,
	window: { end: 0, spentUntil: 0, own: 0, others: 0 },
	earlierWindows: [],
	...more,
});
/** A budget that knows where its window ends (an hour ahead), so only the pace decides. */
const paced = (more: Partial<BudgetFigures> = {}): BudgetFigures => figures({ windowEnd: T + 3_600_000, ...more });
const httpDate = (ms: number) => new Date(ms).toUTCString();
const workflow = () => new Deadline(300_000);
const call = (at: number) => ({ at, place: 0 });

/** A budget with one call sent at `at` and answered at `now` with `answer`, which ends it. */
function answered(answer: RateAnswer, s: RateSettings, at = T, now = T + 100, budget = new RateBudget()): RateBudget {
	const place = budget.enter();
	budget.settle({ ...budget.start(place, at), at }, answer, s, now);
	budget.end(place);
	return budget;
}

describe('rule 1: the pace', () => {
	it('divides the limit by the n8n processes sharing the key, rounding down, never below one call', () => {
		expect(paceOf(figures(), settings({ limit: 100, processes: 4 }))).toBe(25);
		expect(paceOf(figures(), settings({ limit: 100, processes: 3 }))).toBe(33);
		expect(paceOf(figures(), settings({ limit: 2, processes: 4 }))).toBe(1);
	});

	it("takes a lower X-RateLimit-Limit than the credential's, never a higher one", () => {
		expect(paceOf(figures({ announcedLimit: 40 }), settings({ limit: 100 }))).toBe(40);
		expect(paceOf(figures({ announcedLimit: 400 }), settings({ limit: 100 }))).toBe(100);
		expect(answered({ status: 200, limit: 40 }, settings({ limit: 100 })).figures().announcedLimit).toBe(40);
		// A limit of 0 is no limit announced.
		expect(answered({ status: 200, limit: 0 }, settings()).figures().announcedLimit).toBe(Infinity);
	});
});

describe('rule 2: calls counted', () => {
	it('lets a call go below the pace, and waits for an answer while a pace of calls is on its way', () => {
		expect(readyAt(paced({ countedUntil: [T + 1000, T + 59_000] }), settings(), T)).toBe(T);
		expect(readyAt(paced({ countedUntil: [T + 1000, T + 59_000], inFlight: 1 }), settings(), T)).toBe(T + 1000);
		expect(readyAt(paced({ inFlight: 3 }), settings(), T)).toBe(Infinity);
	});

	it('holds the next call until the soonest count ends, not a millisecond less; a count ending now no longer counts', () => {
		const spent = paced({ countedUntil: [T + 10_000, T + 40_000, T + 50_000] });
		expect(readyAt(spent, settings(), T)).toBe(T + 10_000);
		expect(readyAt(spent, settings(), T + 9_999)).toBe(T + 10_000);
		expect(readyAt(paced({ countedUntil: [T, T + 1, T + 1] }), settings(), T)).toBe(T);
	});

	it(`counts an answer a window after it, or until its reset or an end known to come ${2 * DATE_RESOLUTION_MS} ms or more after it where sooner; with window 0 only until its reset`, () => {
		expect(countedUntil({ status: 200 }, settings(), 0, T)).toBe(T + 60_000);
		expect(countedUntil({ status: 200, resetAt: T + 5000 }, settings(), 0, T)).toBe(T + 5000);
		expect(countedUntil({ status: 200 }, settings(), T + 7000, T)).toBe(T + 7000);
		// A reset in whole seconds read against a Date in whole seconds may end that late: a call answered closer to it
		// may be of the next window.
		expect(countedUntil({ status: 200 }, settings(), T + 2 * DATE_RESOLUTION_MS, T)).toBe(T + 2 * DATE_RESOLUTION_MS);
		expect(countedUntil({ status: 200 }, settings(), T + 2 * DATE_RESOLUTION_MS - 1, T)).toBe(T + 60_000);
		// Its own reset wins over an end known before: a reset rounded up may be of the window before its call's.
		expect(countedUntil({ status: 200, resetAt: T + 9000 }, settings(), T + 7000, T)).toBe(T + 9000);
		expect(countedUntil({ status: 200 }, settings(), T - 1, T)).toBe(T + 60_000);
		expect(countedUntil({ status: 200 }, settings({ windowMs: 0 }), 0, T)).toBe(T);
		expect(countedUntil({ status: 200, resetAt: T + 80_000 }, settings({ windowMs: 0 }), 0, T)).toBe(T + 80_000);
		expect(countedUntil(undefined, settings(), 0, T)).toBe(T + 60_000);
	});

	it('counts a call that got no answer too (it may have reached the service), and keeps no more than a limit and one', () => {
		const budget = new RateBudget();
		const small = settings({ limit: 2 });
		for (let i = 0; i < 5; i++) budget.settle(budget.start(budget.enter(), T), { status: 200 }, small, T + i);
		expect(budget.figures().countedUntil).toEqual([T + 2, T + 3, T + 4].map((at) => at + 60_000));
		budget.settle(budget.start(budget.enter(), T + 8), undefined, small, T + 9);
		expect(budget.figures()).toMatchObject({ inFlight: 0, countedUntil: [T + 3, T + 4, T + 9].map((at) => at + 60_000) });
	});
});

describe('rule 3: where a window ends', () => {
	it('learns the end from a refusal: the sooner of its reset and its Retry-After, never an earlier one', () => {
		expect(answered({ status: 429, retryAfterMs: 30_000 }, settings(), T, T).figures().windowEnd).toBe(T + 30_000);
		const budget = answered({ status: 429, retryAfterMs: 30_000, resetAt: T + 29_000 }, settings(), T, T);
		expect(budget.figures().windowEnd).toBe(T + 29_000);
		budget.settle(undefined, { status: 429, retryAfterMs: 1000, resetAt: T + 31_000 }, settings(), T + 29_500);
		expect(budget.figures().windowEnd).toBe(T + 30_500);
		// A 200's Retry-After tells nothing; an earlier end changes nothing.
		budget.settle(undefined, { status: 200, retryAfterMs: 5000, resetAt: T + 20_000 }, settings(), T + 29_600);
		expect(budget.figures().windowEnd).toBe(T + 30_500);
	});

	it('counts the calls answered before an end still ahead only until that end, and those after it no longer', () => {
		const budget = answered({ status: 200 }, settings({ limit: 5 }), T, T + 100);
		budget.settle(undefined, { status: 429, retryAfterMs: 5000 }, settings({ limit: 5 }), T + 200);
		expect(budget.figures().countedUntil).toEqual([T + 5200]);
		// An end learnt after it passed caps nothing: a call answered since may be of the next window.
		const late = answered({ status: 200 }, settings({ limit: 5 }), T, T + 100);
		late.settle(undefined, { status: 200, resetAt: T + 50 }, settings({ limit: 5 }), T + 200);
		expect(late.figures().countedUntil).toEqual([T + 60_100]);
	});
});

describe('rule 4: learning where windows end', () => {
	const spent = figures({ countedUntil: [T + 57_000, T + 58_000, T + 59_000] });

	it('lets one call beyond the pace go when nothing is on its way and no end is ahead', () => {
		expect(readyAt(spent, settings(), T)).toBe(T);
		expect(readyAt({ ...spent, windowEnd: T - 5000 }, settings(), T)).toBe(T);
		expect(readyAt({ ...spent, windowEnd: T + 5000 }, settings(), T)).toBe(T + 57_000);
		expect(readyAt({ ...spent, inStepUntil: T + 5000 }, settings(), T)).toBe(T + 57_000);
		// With a call on its way the pace holds as ever; and only one call more.
		expect(readyAt({ ...spent, inFlight: 1 }, settings(), T)).toBe(T + 58_000);
		expect(readyAt({ ...spent, countedUntil: [...spent.countedUntil, T + 59_500] }, settings(), T)).toBe(T + 57_000);
	});

	it(`keeps in step from a call sent within IN_STEP_MS of an end until a window after its answer, and from each such end again`, () => {
		const s = settings({ limit: 100 });
		const budget = answered({ status: 429, retryAfterMs: 30_000 }, s, T, T);
		budget.settle(call(T + 30_000 + IN_STEP_MS), { status: 200 }, s, T + 32_100);
		expect(budget.figures()).toMatchObject({ windowEnd: T + 30_000, inStepUntil: T + 92_100 });
		// Later answers in that window move it no more: their calls went before its end.
		budget.settle(call(T + 32_050), { status: 200 }, s, T + 33_000);
		expect(budget.figures().inStepUntil).toBe(T + 92_100);
		budget.settle(call(T + 92_200), { status: 200 }, s, T + 92_300);
		expect(budget.figures().inStepUntil).toBe(T + 152_300);
	});

	it('not from a call sent later than IN_STEP_MS after the end (it may follow a pause), before it, or with no end known', () => {
		const s = settings({ limit: 100 });
		const late = answered({ status: 429, retryAfterMs: 30_000 }, s, T, T);
		late.settle(call(T + 30_000 + IN_STEP_MS + 1), { status: 200 }, s, T + 32_100);
		expect(late.figures().inStepUntil).toBe(0);
		const early = answered({ status: 429, retryAfterMs: 30_000 }, s, T, T);
		early.settle(call(T + 29_999), { status: 200 }, s, T + 30_100);
		expect(early.figures().inStepUntil).toBe(0);
		expect(answered({ status: 200 }, s, T, T + 100).figures().inStepUntil).toBe(0);
	});
});

describe('rule 5: a spent window', () => {
	it('holds every call until the window ends, its reset or a window after the answer where sooner', () => {
		const s = settings({ limit: 100, windowMs: 5000 });
		const budget = answered({ status: 200, remaining: 0, resetAt: T + 4000 }, s, T, T);
		expect(readyAt(budget.figures(), s, T)).toBe(T + 4000);
		expect(readyAt(answered({ status: 200, remaining: 0, resetAt: T + 6000 }, s, T, T).figures(), s, T)).toBe(T + 5000);
		expect(readyAt(answered({ status: 200, remaining: 0 }, s, T, T).figures(), s, T)).toBe(T + 5000);
		expect(readyAt(budget.figures(), s, T + 4000)).toBe(T + 4000);
		// A window with some left holds nothing of its own; a 429's Remaining 0 holds no longer than its hold (rule 7).
		expect(readyAt(answered({ status: 200, remaining: 99, resetAt: T + 4000 }, s, T, T).figures(), s, T)).toBe(T);
		const refused = answered({ status: 429, remaining: 0, retryAfterMs: 1000, resetAt: T + 4000 }, s, T, T).figures();
		expect(readyAt(refused, s, refused.hold.until)).toBe(refused.hold.until);
		// Without a reset Remaining 0 spends the window a window after the answer, whatever end an earlier answer made:
		// sooner for a credential of the key with a shorter window, later for an answer of a later service window.
		const open = { end: T + 60_000, spentUntil: 0, own: 1, others: 0 };
		expect(windowAfter(open, { status: 200, remaining: 0 }, 0, 2, settings({ windowMs: 2000 }), T)).toEqual({ end: T + 60_000, spentUntil: T + 2000, own: 2, others: 0 });
		expect(windowAfter({ ...open, end: T + 30_000 }, { status: 200, remaining: 0 }, 0, 2, settings(), T - 1000)).toMatchObject({ end: T + 30_000, spentUntil: T + 59_000 });
		// Nor does an answer without one end a spent window by seeming to open another.
		expect(windowAfter({ ...open, spentUntil: T + 2000 }, { status: 200, remaining: 1 }, 0, 2, settings(), T + 31_000)).toEqual({ end: T + 91_000, spentUntil: T + 2000, own: 1, others: 0 });
		const shorter = answered({ status: 200, remaining: 1 }, settings({ limit: 2 }), T, T);
		const earlier = shorter.figures().earlierWindows;
		answered({ status: 200, remaining: 0 }, settings({ limit: 2, windowMs: 2000 }), T + 100, T + 200, shorter);
		expect(shorter.figures()).toMatchObject({ window: { spentUntil: T + 2200, own: 2 }, earlierWindows: earlier });
	});

	it('holds no call of a later window for an earlier one\'s Remaining, nor for an answer of an ended window', () => {
		const s = settings({ limit: 100, windowMs: 5000 });
		const window = { end: T + 5000, spentUntil: T + 5000, own: 3, others: 0 };
		expect(windowAfter(window, { status: 200, remaining: 10, resetAt: T + 10_000 }, 0, 100, s, T + 5100)).toEqual({ end: T + 10_000, spentUntil: 0, own: 1, others: 89 });
		expect(windowAfter(window, { status: 200, remaining: 10, resetAt: T - 1000 }, 0, 100, s, T)).toBe(window);
		// Within half a window (a reset in whole seconds moves), the same window.
		expect(windowAfter(window, { status: 200, remaining: 10, resetAt: T + 7000 }, 0, 100, s, T)).toMatchObject({ end: T + 5000, own: 4 });
	});
});

describe('rule 6: other clients', () => {
	const s = settings({ limit: 40, windowMs: 5000 });

	it("counts other clients' calls: what the service counted beyond this process's answered calls and those on their way", () => {
		let window = { end: 0, spentUntil: 0, own: 0, others: 0 };
		window = windowAfter(window, { status: 200, remaining: 30, resetAt: T + 5000 }, 2, 40, s, T);
		expect(window).toEqual({ end: T + 5000, spentUntil: 0, own: 1, others: 7 });
		// A refusal shows the window full; its own call was not counted, and its hold, not the window, waits it out.
		window = windowAfter(window, { status: 429, remaining: 0, resetAt: T + 5000 }, 0, 40, s, T);
		expect(window).toMatchObject({ own: 1, others: 39, spentUntil: 0 });
	});

	it('takes its part of the limit from this window, or the lowest of the windows before it', () => {
		expect(paceOf(figures({ window: { end: T, spentUntil: 0, own: 10, others: 30 } }), s)).toBe(10);
		expect(paceOf(figures({ window: { end: T, spentUntil: 0, own: 0, others: 30 } }), s)).toBe(40);
		expect(paceOf(figures({ earlierWindows: [{ end: T, spentUntil: 0, own: 10, others: 10 }, { end: T, spentUntil: 0, own: 6, others: 34 }] }), s)).toBe(6);
		// With the processes stated, the lower of the two.
		expect(paceOf(figures({ earlierWindows: [{ end: T, spentUntil: 0, own: 30, others: 10 }] }), settings({ limit: 40, processes: 4 }))).toBe(10);
	});

	it('does not shrink a window at a time: a stated process keeps what the others left, an unstated one its share to the nearest call', () => {
		// A worker that sent 8 where the other three sent 30 had 10 left to it; its share by proportion (8) would stick.
		expect(paceOf(figures({ earlierWindows: [{ end: T, spentUntil: 0, own: 8, others: 30 }] }), settings({ limit: 40, processes: 4 }))).toBe(10);
		// 40 × 9 ÷ 37 is 9.7: rounded down, the part loses a call each window it is the lowest.
		expect(paceOf(figures({ earlierWindows: [{ end: T, spentUntil: 0, own: 9, others: 28 }] }), s)).toBe(10);
		expect(paceOf(figures({ earlierWindows: [{ end: T, spentUntil: 0, own: 9, others: 30 }] }), s)).toBe(9);
	});

	it("takes what the others left of the service's limit where the credential states less, to leave room for another app", () => {
		// The service allows 100; the credential 50 for two workers, beside an app spending 40: 100 − (40 + 25) leaves 35.
		const window = { end: T, spentUntil: 0, own: 25, others: 65 };
		expect(paceOf(figures({ announcedLimit: 100, earlierWindows: [window] }), settings({ limit: 50, processes: 2 }))).toBe(25);
		// Over the service's limit it still takes only what is left.
		expect(paceOf(figures({ announcedLimit: 100, earlierWindows: [{ ...window, others: 90 }] }), settings({ limit: 50, processes: 2 }))).toBe(10);
	});

	it(`left at 1 beside other clients, sends the last call of a part ${LAST_CALL_AT} into the window, where its answer shows the others' calls`, () => {
		// The window under way runs from T to T + 5000; this process sent 4 of its part of 5 (40 × 4 ÷ 34, to the nearest).
		const end = T + 5000;
		const four = figures({ windowEnd: end, countedUntil: [end, end, end, end], window: { end, spentUntil: 0, own: 4, others: 30 } });
		expect(paceOf(four, s)).toBe(5);
		expect(readyAt(four, s, T + 100)).toBe(T + LAST_CALL_AT * 5000);
		expect(readyAt(four, s, T + LAST_CALL_AT * 5000 + 1)).toBe(T + LAST_CALL_AT * 5000 + 1);
		// Not the last of its part: at once; one on its way counts as sent.
		expect(readyAt({ ...four, countedUntil: [end, end, end] }, s, T + 100)).toBe(T + 100);
		expect(readyAt({ ...four, countedUntil: [end, end, end], inFlight: 1 }, s, T + 100)).toBe(T + LAST_CALL_AT * 5000);
		// Before an answer tells the end of the window that began at the last end known: half into that one.
		expect(readyAt({ ...four, windowEnd: T }, s, T + 100)).toBe(T + LAST_CALL_AT * 5000);
		expect(readyAt({ ...four, windowEnd: T + 100 }, s, T + 100)).toBe(T + 100 + LAST_CALL_AT * 5000);
		// Past half the window: at once.
		expect(readyAt({ ...four, windowEnd: T - 4000 }, s, T + 100)).toBe(T + 100);
		// A part of two: its second call.
		expect(readyAt(figures({ windowEnd: end, countedUntil: [end], window: { end, spentUntil: 0, own: 1, others: 19 } }), s, T + 100)).toBe(T + LAST_CALL_AT * 5000);
		// A part of one call, or the processes stated (their parts are what the others left): at once.
		expect(readyAt(figures({ windowEnd: end, window: { end, spentUntil: 0, own: 1, others: 39 } }), s, T + 100)).toBe(T + 100);
		const stated = { ...four, window: { end, spentUntil: 0, own: 4, others: 35 } };
		expect(paceOf(stated, settings({ limit: 40, processes: 2 }))).toBe(5);
		expect(readyAt(stated, settings({ limit: 40, windowMs: 5000, processes: 2 }), T + 100)).toBe(T + 100);
		// Alone at the credential's limit of 5, or with only a 429's Remaining seen (no answer of its own showed one): at once.
		const alone = { ...four, window: { end, spentUntil: 0, own: 4, others: 0 } };
		expect(paceOf(alone, settings({ limit: 5, windowMs: 5000 }))).toBe(5);
		expect(readyAt(alone, settings({ limit: 5, windowMs: 5000 }), T + 100)).toBe(T + 100);
		expect(readyAt({ ...four, window: { end, spentUntil: 0, own: 0, others: 39 } }, settings({ limit: 5, windowMs: 5000 }), T + 100)).toBe(T + 100);
	});

	it('never keeps a call past its deadline to send it later in the window', () => {
		const budget = new RateBudget();
		[9, 8, 7, 6].forEach((remaining) => answered({ status: 200, remaining, resetAt: T + 5000 }, s, T, T + 10, budget));
		const place = budget.enter();
		expect(budget.next(place, s, workflow(), T + 100)).toEqual({ until: T + LAST_CALL_AT * 5000 });
		const tool = new Deadline(900, T + 1000);
		expect(budget.next(place, s, tool, T + 100)).toEqual({ until: T + 1000 });
		expect(budget.next(place, s, tool, T + 1000)).toEqual({ go: true });
	});

	it(`remembers the ${WINDOWS_REMEMBERED} windows before the current one, and forgets older ones`, () => {
		const budget = new RateBudget();
		const ends = Array.from({ length: WINDOWS_REMEMBERED + 2 }, (_, index) => T + index * 5000);
		ends.forEach((end, index) => answered({ status: 200, remaining: index === 0 ? 10 : 38, resetAt: end + 5000 }, s, end, end + 10, budget));
		expect(budget.figures().earlierWindows).toHaveLength(WINDOWS_REMEMBERED);
		// The first window (own 1, others 29) is forgotten; the later ones show no other client.
		expect(paceOf(budget.figures(), s)).toBe(Math.floor((40 * 1) / (1 + 1)));
	});
});

describe('rule 7: a 429\'s hold', () => {
	it('until its Retry-After or its reset, whichever comes first, and says which', () => {
		expect(holdAfterRefusal({ status: 429, retryAfterMs: 3000, resetAt: T + 9000 }, settings(), T, 0)).toEqual({ ms: 3000, by: 'Retry-After' });
		expect(holdAfterRefusal({ status: 429, retryAfterMs: 3000, resetAt: T + 2500 }, settings(), T, 0)).toEqual({ ms: 2500, by: 'X-RateLimit-Reset' });
		expect(holdAfterRefusal({ status: 429, resetAt: T + 9000 }, settings(), T, 0)).toEqual({ ms: 9000, by: 'X-RateLimit-Reset' });
		expect(holdAfterRefusal({ status: 429, retryAfterMs: 3000 }, settings(), T, 5000)).toEqual({ ms: 3000, by: 'Retry-After' });
	});

	it(`where it says neither, a window (${UNKNOWN_WINDOW_MS} ms where it is 0), twice the last hold when the key refused again`, () => {
		expect(holdAfterRefusal({ status: 429 }, settings({ windowMs: 5000 }), T, 0)).toEqual({ ms: 5000, by: 'doubling' });
		expect(holdAfterRefusal({ status: 429 }, settings({ windowMs: 0 }), T, 0).ms).toBe(UNKNOWN_WINDOW_MS);
		expect(holdAfterRefusal({ status: 429 }, settings({ windowMs: 5000 }), T, 5000).ms).toBe(10_000);
	});

	it(`never under ${DATE_RESOLUTION_MS} ms nor over LONGEST_HOLD_MS (${LONGEST_HOLD_MS} ms)`, () => {
		expect(holdAfterRefusal({ status: 429, retryAfterMs: 0 }, settings(), T, 0).ms).toBe(DATE_RESOLUTION_MS);
		expect(holdAfterRefusal({ status: 429, resetAt: T - 10 }, settings(), T, 0).ms).toBe(DATE_RESOLUTION_MS);
		expect(holdAfterRefusal({ status: 429 }, settings(), T, LONGEST_HOLD_MS).ms).toBe(LONGEST_HOLD_MS);
	});

	it('doubles and lets one call at a time go only for a refusal of a call sent after the last hold began', () => {
		const s = settings({ limit: 100, windowMs: 0 });
		const budget = new RateBudget();
		budget.settle(call(T - 20), { status: 429 }, s, T);
		expect(budget.figures().hold).toEqual({ until: T + UNKNOWN_WINDOW_MS, ms: UNKNOWN_WINDOW_MS, by: 'doubling', again: false });
		// Sent before that refusal came: it only extends the hold, as its own would.
		budget.settle(call(T - 10), { status: 429 }, s, T + 10);
		expect(budget.figures().hold).toMatchObject({ until: T + 10 + UNKNOWN_WINDOW_MS, again: false });
		budget.settle(call(T + UNKNOWN_WINDOW_MS + 10), { status: 429 }, s, T + UNKNOWN_WINDOW_MS + 100);
		expect(budget.figures().hold).toMatchObject({ ms: 2 * UNKNOWN_WINDOW_MS, again: true });
		expect(readyAt({ ...budget.figures(), hold: { ...budget.figures().hold, until: 0 }, inFlight: 1 }, s, T)).toBe(Infinity);
		budget.settle(call(T + 10 * UNKNOWN_WINDOW_MS), { status: 200 }, s, T + 10 * UNKNOWN_WINDOW_MS);
		expect(budget.figures().hold).toMatchObject({ ms: 0, again: false });
	});

	it('lets no call go while held, and never shortens a hold', () => {
		const budget = answered({ status: 429, retryAfterMs: 5000 }, settings(), T, T);
		budget.settle(undefined, { status: 429, retryAfterMs: 1000 }, settings(), T + 10);
		expect(budget.figures().hold.until).toBe(T + 5000);
		expect(readyAt(budget.figures(), settings(), T + 4999)).toBe(T + 5000);
	});

	it('sits out a hold on the clock, then lets the call go', async () => {
		const budget = answered({ status: 429, retryAfterMs: 60_000 }, settings(), Date.now(), Date.now());
		const { elapsedMs } = await onControlledClock(async () => await budget.acquire(settings(), workflow()));
		expect(elapsedMs).toBeGreaterThanOrEqual(59_900);
		expect(elapsedMs).toBeLessThan(61_000);
	});
});

describe('rule 8: the service\'s times', () => {
	const read = (headers: Record<string, unknown>, s = settings(), status = 429, now = T) => readRateAnswer(headers, status, now, s);

	it('places the reset in the first unit that puts it within a window after the Date, in Auto, never by its size alone', () => {
		expect(read({ 'x-ratelimit-reset': String(T / 1000 + 30) }).resetAt).toBe(T + 30_000);
		expect(read({ 'x-ratelimit-reset': String(T + 30_000) }).resetAt).toBe(T + 30_000);
		expect(read({ 'x-ratelimit-reset': '30' }).resetAt).toBe(T + 30_000);
		expect(read({ 'x-ratelimit-reset': ['5'] }).resetAt).toBe(T + 5000);
		// 60000 meant as milliseconds: 1970 in either epoch unit, 16.7 hours as seconds from now: no unit places it.
		expect(read({ 'x-ratelimit-reset': '60000' }).resetAt).toBeUndefined();
	});

	it(`believes times from ${DATE_RESOLUTION_MS} ms before the Date to a window and ${DATE_RESOLUTION_MS} ms after it (${UNKNOWN_WINDOW_MS} ms where the window is 0)`, () => {
		expect(read({ 'x-ratelimit-reset': '61' }).resetAt).toBe(T + 61_000);
		expect(read({ 'x-ratelimit-reset': '62' }).resetAt).toBeUndefined();
		expect(read({ 'x-ratelimit-reset': String(T - DATE_RESOLUTION_MS) }).resetAt).toBe(T - DATE_RESOLUTION_MS);
		expect(read({ 'x-ratelimit-reset': String(T - DATE_RESOLUTION_MS - 1) }).resetAt).toBeUndefined();
		expect(read({ 'x-ratelimit-reset': '6' }, settings({ windowMs: 5000 })).resetAt).toBe(T + 6000);
		expect(read({ 'x-ratelimit-reset': '7' }, settings({ windowMs: 5000 })).resetAt).toBeUndefined();
		expect(read({ 'x-ratelimit-reset': String(UNKNOWN_WINDOW_MS / 1000) }, settings({ windowMs: 0 })).resetAt).toBe(T + UNKNOWN_WINDOW_MS);
		expect(read({ 'retry-after': '61' }).retryAfterMs).toBe(61_000);
		expect(read({ 'retry-after': '60000' }).retryAfterMs).toBeUndefined();
	});

	it('reads the reset in an explicit unit alone, and not at all where that unit puts it outside a window', () => {
		expect(read({ 'x-ratelimit-reset': String(T + 20_000) }, settings({ resetUnit: 'epochMs' })).resetAt).toBe(T + 20_000);
		expect(read({ 'x-ratelimit-reset': '20' }, settings({ resetUnit: 'secondsFromNow' })).resetAt).toBe(T + 20_000);
		expect(read({ 'x-ratelimit-reset': '20' }, settings({ resetUnit: 'epochSeconds' })).resetAt).toBeUndefined();
		expect(read({ 'x-ratelimit-reset': String(T / 1000 + 20) }, settings({ resetUnit: 'secondsFromNow' })).resetAt).toBeUndefined();
	});

	it(`believes only the time counted from now where one is on the service's clock more than ${DATE_RESOLUTION_MS} ms from it`, () => {
		// A service clock 5 s behind without Date: its epoch reset reads 5 s early, its Retry-After date too.
		const early = String(Math.ceil((T + 6000 - 5000) / 1000));
		expect(read({ 'retry-after': '6', 'x-ratelimit-reset': early })).toEqual({ status: 429, retryAfterMs: 6000 });
		expect(read({ 'retry-after': httpDate(T + 1000), 'x-ratelimit-reset': '6' })).toEqual({ status: 429, resetAt: T + 6000 });
		// Within a resolution (whole seconds either way) both are believed; both on the same clock or both from now too.
		expect(read({ 'retry-after': '6', 'x-ratelimit-reset': String(T / 1000 + 6 - DATE_RESOLUTION_MS / 1000) })).toMatchObject({ retryAfterMs: 6000, resetAt: T + 6000 - DATE_RESOLUTION_MS });
		expect(read({ 'retry-after': httpDate(T + 1000), 'x-ratelimit-reset': String(T / 1000 + 6) })).toMatchObject({ retryAfterMs: 1000, resetAt: T + 6000 });
		expect(read({ 'retry-after': '1', 'x-ratelimit-reset': '6' })).toMatchObject({ retryAfterMs: 1000, resetAt: T + 6000 });
	});

	it('reads Retry-After as seconds or a date, and not at all as words', () => {
		expect(read({ 'retry-after': '2' }).retryAfterMs).toBe(2000);
		expect(read({ 'retry-after': '-3' }).retryAfterMs).toBe(0);
		expect(read({ 'retry-after': httpDate(T + 3000) }).retryAfterMs).toBe(3000);
		expect(read({ 'retry-after': 'soon' }).retryAfterMs).toBeUndefined();
	});

	it(`reads times against this clock while the Date is within ${DATE_RESOLUTION_MS} ms of it, and against the Date from there`, () => {
		const retry = httpDate(T + 3000);
		expect(read({ date: httpDate(T), 'retry-after': retry }, settings(), 429, T + 300).retryAfterMs).toBe(2700);
		expect(read({ date: httpDate(T), 'retry-after': retry }, settings(), 429, T + DATE_RESOLUTION_MS - 1).retryAfterMs).toBe(3000 - DATE_RESOLUTION_MS + 1);
		expect(read({ date: httpDate(T), 'retry-after': retry }, settings(), 429, T + DATE_RESOLUTION_MS).retryAfterMs).toBe(3000);
		expect(read({ date: httpDate(T), 'retry-after': retry }, settings(), 429, T - DATE_RESOLUTION_MS).retryAfterMs).toBe(3000);
		// A service clock 5 s behind: its reset 10 s after its Date is 10 s from now here.
		expect(read({ date: httpDate(T - 5000), 'x-ratelimit-reset': String(T - 5000 + 10_000) }, settings(), 200).resetAt).toBe(T + 10_000);
	});

	it('reads the figures, a blank header as absent', () => {
		expect(read({ 'x-ratelimit-limit': '7', 'x-ratelimit-remaining': '0' }, settings(), 200)).toStrictEqual({ status: 200, limit: 7, remaining: 0 });
		expect(read({ 'retry-after': '  ', 'x-ratelimit-remaining': '', 'x-ratelimit-reset': 'x' })).toStrictEqual({ status: 429, limit: undefined, remaining: undefined });
	});
});

describe('rule 9: the deadline', () => {
	it('as a tool, for every wait of the tool call; in a workflow, for the holds from the first one the call meets', () => {
		const tool = new Deadline(30_000, T + 30_000);
		expect(tool.latest(false, T + 5000)).toBe(T + 30_000);
		expect(tool.waitedMs(T + 5000)).toBe(5000);
		const flow = new Deadline(30_000);
		expect(flow.latest(false, T)).toBe(Infinity);
		expect(flow.latest(true, T + 1000)).toBe(T + 31_000);
		expect(flow.latest(true, T + 9000)).toBe(T + 31_000);
		expect(flow.latest(false, T + 9000)).toBe(Infinity);
		expect(flow.waitedMs(T + 9000)).toBe(8000);
		expect(new Deadline(1000).waitedMs(T)).toBe(0);
	});

	it('fails a call at once when a hold would keep it past the deadline, naming the wait and what holds', () => {
		const budget = answered({ status: 429, retryAfterMs: 5000 }, settings(), T, T);
		const heldMs = budget.figures().hold.until - T;
		const behind = budget.enter();
		const step = budget.next(behind, settings(), new Deadline(1000), T);
		expect('tooLate' in step && step.tooLate).toMatchObject({ neededMs: heldMs, heldBy: 'Retry-After', message: `The rate limit allows this call in ${heldMs} ms` });
		// One whose hold fits waits for it.
		expect(budget.next(behind, settings(), new Deadline(heldMs + 1000), T)).toEqual({ until: T + heldMs });
	});

	it('as a tool, a call waiting behind others leaves at its deadline, saying it would go only after them', () => {
		const budget = new RateBudget();
		budget.enter();
		const behind = budget.enter();
		expect(budget.next(behind, settings(), new Deadline(500, T + 500), T)).toEqual({ until: T + 500 });
		const step = budget.next(behind, settings(), new Deadline(500, T + 500), T + 500);
		expect('tooLate' in step && step.tooLate).toMatchObject({ neededMs: undefined, message: 'The rate limit allows this call later' });
		// In a workflow it waits for its turn, however long.
		expect(budget.next(behind, settings(), workflow(), T + 500)).toEqual({ until: Infinity });
	});

	it('lets a call that is ready go, even past its deadline, and fails one the pace would hold past it', () => {
		const budget = new RateBudget();
		expect(budget.next(budget.enter(), settings(), new Deadline(0, T - 1), T)).toEqual({ go: true });
		const s = settings({ limit: 1 });
		const spent = answered({ status: 200, resetAt: T + 5000 }, s, T, T);
		const step = spent.next(spent.enter(), s, new Deadline(1000, T + 1000), T);
		expect('tooLate' in step && step.tooLate).toMatchObject({ neededMs: 5000, heldBy: undefined });
		expect(spent.next(spent.enter(), s, new Deadline(1000, T + 5000), T)).toEqual({ until: T + 5000 });
	});
});

describe('rule 10: order and Stop', () => {
	it('lets only the head go, a refused call going again keeping its place, two of them in their first order', () => {
		const budget = new RateBudget();
		const [first, second, third] = [budget.enter(), budget.enter(), budget.enter()];
		expect(budget.next(second, settings(), workflow(), T)).toEqual({ until: Infinity });
		const [a, b] = [budget.start(first, T), budget.start(second, T)];
		budget.settle(a, { status: 429, retryAfterMs: 1000 }, settings(), T + 10);
		budget.settle(b, { status: 429, retryAfterMs: 1000 }, settings(), T + 20);
		// Both go again once the hold ends: back before the third, in their first order.
		const after = budget.figures().hold.until;
		budget.enter(b.place);
		budget.enter(a.place);
		expect(budget.next(third, settings(), workflow(), after)).toEqual({ until: Infinity });
		expect(budget.next(b.place, settings(), workflow(), after)).toEqual({ until: Infinity });
		expect(budget.next(a.place, settings(), workflow(), after)).toEqual({ go: true });
	});

	it('sends calls in the order they came, on the clock, a refused call back at the head', async () => {
		const one = settings({ limit: 1, windowMs: 0 });
		const budget = new RateBudget();
		const order: string[] = [];
		const first = await budget.acquire(one, workflow());
		const waiting = ['a', 'b'].map(async (name) => {
			const reservation = await budget.acquire(one, workflow());
			order.push(name);
			budget.settle(reservation, { status: 200 }, one);
		});
		budget.settle(first, { status: 429, retryAfterMs: 0 }, one);
		const again = budget.acquire(one, workflow(), undefined, first.place).then((reservation) => {
			order.push('refused');
			budget.settle(reservation, { status: 200 }, one);
		});
		await onControlledClock(async () => await Promise.all([...waiting, again]));
		expect(order).toEqual(['refused', 'a', 'b']);
	});

	it('when its execution is cancelled, leaves at once and is never sent, and the call behind it goes', async () => {
		const one = settings({ limit: 1, windowMs: 0 });
		const budget = new RateBudget();
		await expectCancelledCallLeaves(budget, one, workflow);
		const stopped = new AbortController();
		stopped.abort();
		await expect(budget.acquire(one, workflow(), stopped.signal)).rejects.toThrow();
		expect(budget.figures().inFlight).toBe(1);
	});

	it("waits on n8n's abortable sleep: a cancelled wait ends at once; the cancel signal comes from the context when it has one", async () => {
		const abort = new AbortController();
		abort.abort();
		const started = Date.now();
		await expect(pause(5000, abort.signal)).rejects.toThrow();
		expect(Date.now() - started).toBeLessThan(1000);
		await expect(pause(1)).resolves.toBeUndefined();
		await expect(leaveIfCancelled(abort.signal)).rejects.toThrow();
		await expect(leaveIfCancelled(new AbortController().signal)).resolves.toBeUndefined();
		expect(cancelSignal({ getExecutionCancelSignal: () => abort.signal })).toBe(abort.signal);
		expect(cancelSignal({})).toBeUndefined();
	});
});

describe('rule 12: the budgets of a process', () => {
	beforeEach(() => resetBudgets());
	afterAll(() => resetBudgets());

	it('is one per key and kind, whatever base URL leads to the key', () => {
		const budget = getBudget('k', 'read');
		// In use: a budget that never had a call knows nothing, and may be dropped.
		budget.enter();
		expect(getBudget('k', 'read')).toBe(budget);
		expect(getBudget('other', 'read')).not.toBe(budget);
		expect(getBudget('k', 'write')).not.toBe(budget);
		expect(budgetKey('k')).toMatch(/^[0-9a-f]{32}$/);
		expect(budgetKey('k')).not.toContain('k');
	});

	it(`is dropped once nothing it knows has mattered for ${IDLE_WINDOWS} of its own windows, whatever the window of another key`, () => {
		const budgets = new RateBudgets();
		const [slow, fast] = [settings({ windowMs: 60_000 }), settings({ windowMs: 1000 })];
		const used = (key: string, s: RateSettings, at: number) => {
			const budget = budgets.budget(key, 'read', at);
			budget.next(budget.enter(), s, workflow(), at);
			budget.settle(budget.start(0, at), { status: 200 }, s, at);
			budget.end(0);
			return budget;
		};
		const spent = used('slow', slow, T);
		used('fast', fast, T);
		// IDLE_WINDOWS of the fast key's windows later, it is dropped; the slow one is not, its answer still counts.
		expect(budgets.budget('other', 'read', T + IDLE_WINDOWS * 1000)).not.toBe(spent);
		expect(budgets.size).toBe(2);
		expect(budgets.budget('slow', 'read', T + IDLE_WINDOWS * 60_000 - 1)).toBe(spent);
		expect(budgets.budget('slow', 'read', T + IDLE_WINDOWS * 60_000)).not.toBe(spent);
	});

	it('is never dropped while it holds, waits or has a call on its way or between its tries, or its window is spent', () => {
		const held = answered({ status: 429, retryAfterMs: LONGEST_HOLD_MS }, settings(), T, T);
		expect(held.isIdle(T + LONGEST_HOLD_MS - 1)).toBe(false);
		const busy = new RateBudget();
		busy.start(busy.enter(), T);
		expect(busy.isIdle(T + 10 * UNKNOWN_WINDOW_MS)).toBe(false);
		const waiting = new RateBudget();
		waiting.enter();
		expect(waiting.isIdle(T + 10 * UNKNOWN_WINDOW_MS)).toBe(false);
		const spent = answered({ status: 200, remaining: 0 }, settings({ windowMs: 0 }), T, T);
		expect(spent.isIdle(T + UNKNOWN_WINDOW_MS)).toBe(false);
		// A read whose connection dropped waits before its next try, out of the queue: its budget stays until it ends.
		const between = new RateBudget();
		const read = between.enter();
		between.settle(between.start(read, T), undefined, settings(), T);
		expect(between.isIdle(T + 10 * UNKNOWN_WINDOW_MS)).toBe(false);
		between.end(read);
		expect(between.isIdle(T + 10 * UNKNOWN_WINDOW_MS)).toBe(true);
		expect(new RateBudget().isIdle(T)).toBe(true);
	});

	it('reads the credential afresh: its limits, window, processes and reset unit, documented values when unset or invalid', () => {
		expect(rateSettings({}, 'read')).toEqual({ limit: DEFAULT_LIMITS.read, windowMs: DEFAULT_WINDOW_SECONDS * 1000, processes: 1, resetUnit: 'auto' });
		expect(rateSettings({}, 'write').limit).toBe(DEFAULT_LIMITS.write);
		const set = { readsPerWindow: 10, writesPerWindow: 5, rateLimitWindowSeconds: 0, clientsSharingKey: 2.7, rateLimitResetUnit: 'epochMs' };
		expect(rateSettings(set, 'write')).toEqual({ limit: 5, windowMs: 0, processes: 2, resetUnit: 'epochMs' });
		expect(rateSettings({ readsPerWindow: '', rateLimitResetUnit: 'hours' }, 'read')).toMatchObject({ limit: DEFAULT_LIMITS.read, resetUnit: 'auto' });
		for (const value of [null, '', 'abc', 0, -5]) expect(rateSettings({ readsPerWindow: value, clientsSharingKey: value }, 'read')).toMatchObject({ limit: DEFAULT_LIMITS.read, processes: 1 });
		for (const value of [-1, null, '', 'abc']) expect(rateSettings({ rateLimitWindowSeconds: value }, 'read').windowMs).toBe(DEFAULT_WINDOW_SECONDS * 1000);
		expect(rateSettings({ readsPerWindow: '7', rateLimitWindowSeconds: '0' }, 'read')).toMatchObject({ limit: 7, windowMs: 0 });
	});

	it('counts GET and HEAD as reads, any other method as a write', () => {
		expect(['GET', 'get', 'HEAD', 'POST', 'delete', 'PATCH'].map(callKind)).toEqual(['read', 'read', 'read', 'write', 'write', 'write']);
	});

	it('names a too-late wait in whole milliseconds', () => {
		expect(new RateWaitTooLong(4999.6).message).toBe('The rate limit allows this call in 5000 ms');
	});
});
