/**
 * The rate rules, one by one, as pure functions of a budget's figures and the time in ms (no waiting), and the
 * budget's queue on n8n's own sleep under a controlled clock. The engine tests (spike, rate-limit, max-rate-limit-wait,
 * tool-rate-wait, rate-defects) show the same rules where a user sees them.
 */
import { budgetKey } from '../../nodes/Prospecting/helpers/account';
import { cancelSignal, leaveIfCancelled, pause } from '../../nodes/Prospecting/transport/pause';
import { RateBudget, budgetCount, callKind, getBudget, rateSettings, resetBudgets, RateWaitTooLong } from '../../nodes/Prospecting/transport/rateBudget';
import {
	DATE_RESOLUTION_MS,
	IN_STEP_MS,
	MIN_HOLD_MS,
	UNKNOWN_WINDOW_HOLD_MS,
	holdAfterRefusal,
	paceOf,
	readRateAnswer,
	readyAt,
	resetUnitOf,
	type BudgetFigures,
	type RateSettings,
} from '../../nodes/Prospecting/transport/rateRules';
import { onControlledClock } from '../../dev/harness/clock';

const T = Date.parse('2026-11-27T10:00:00.000Z');
const settings = (more: Partial<RateSettings> = {}): RateSettings => ({ limit: 3, windowMs: 60_000, processes: 1, resetUnit: 'auto', ...more });
const figures = (more: Partial<BudgetFigures> = {}): BudgetFigures => ({
	inFlight: 0,
	countedFrom: [],
	heldUntil: 0,
	holdMs: 0,
	resetAt: 0,
	announcedLimit: Infinity,
	inStepUntil: 0,
	...more,
});
const httpDate = (ms: number) => new Date(ms).toUTCString();
/** A budget that knows where a window ends (an hour ahead), so only the pace decides. */
const paced = (more: Partial<BudgetFigures> = {}): BudgetFigures => figures({ resetAt: T + 3_600_000, ...more });

describe('rule 1: pace from the limits', () => {
	it("lets a call go while fewer than the limit were answered within a window's length or are on their way", () => {
		expect(readyAt(paced({ countedFrom: [T - 59_000, T - 1000] }), settings(), T)).toBe(T);
		expect(readyAt(paced({ countedFrom: [T - 59_000, T - 1000], inFlight: 1 }), settings(), T)).toBe(T + 1000);
	});

	it("holds the next call until the oldest counted answer is a whole window's length old, not a millisecond less", () => {
		const answered = paced({ countedFrom: [T - 50_000, T - 20_000, T - 10_000] });
		expect(readyAt(answered, settings(), T)).toBe(T + 10_000);
		expect(readyAt(answered, settings(), T + 9_999)).toBe(T + 10_000);
		expect(readyAt(answered, settings(), T + 10_000)).toBe(T + 10_000);
		// An answer exactly a window's length old no longer counts.
		expect(readyAt(paced({ countedFrom: [T - 60_000, T - 1, T - 1] }), settings(), T)).toBe(T);
	});

	it('waits for an answer while a pace of calls is on its way', () => {
		expect(readyAt(paced({ inFlight: 3 }), settings(), T)).toBe(Infinity);
		expect(readyAt(paced({ inFlight: 2 }), settings(), T)).toBe(T);
	});

	it('divides the limit by the n8n processes sharing the key, rounding down, never below one call', () => {
		expect(paceOf(settings({ limit: 100, processes: 4 }), Infinity)).toBe(25);
		expect(paceOf(settings({ limit: 100, processes: 3 }), Infinity)).toBe(33);
		expect(paceOf(settings({ limit: 2, processes: 4 }), Infinity)).toBe(1);
		expect(paceOf(settings({ limit: 100, processes: 0 }), Infinity)).toBe(100);
	});

	it("takes a lower X-RateLimit-Limit than the credential's, never a higher one", () => {
		expect(paceOf(settings({ limit: 100 }), 40)).toBe(40);
		expect(paceOf(settings({ limit: 100 }), 400)).toBe(100);
	});

	it('paces nothing when the window is 0, beyond the calls on their way', () => {
		expect(readyAt(paced({ countedFrom: [T, T, T] }), settings({ windowMs: 0 }), T)).toBe(T);
	});

	it('reads the credential afresh: its limits, window, processes and reset unit, documented values when unset', () => {
		expect(rateSettings({}, 'read')).toEqual({ limit: 200, windowMs: 60_000, processes: 1, resetUnit: 'auto' });
		expect(rateSettings({}, 'write').limit).toBe(100);
		const set = { readsPerWindow: 10, writesPerWindow: 5, rateLimitWindowSeconds: 0, clientsSharingKey: 2.7, rateLimitResetUnit: 'epochMs' };
		expect(rateSettings(set, 'write')).toEqual({ limit: 5, windowMs: 0, processes: 2, resetUnit: 'epochMs' });
		expect(rateSettings({ readsPerWindow: '', rateLimitResetUnit: 'hours' }, 'read')).toMatchObject({ limit: 200, resetUnit: 'auto' });
	});
});

describe('rule 2: headers only make it more careful', () => {
	it('decides the reset unit by where each unit puts it after the Date, never by its size alone', () => {
		expect(resetUnitOf(T / 1000 + 30, T, 60_000)).toBe('epochSeconds');
		expect(resetUnitOf(T + 30_000, T, 60_000)).toBe('epochMs');
		expect(resetUnitOf(30, T, 60_000)).toBe('secondsFromNow');
		// 60000 meant as milliseconds: 1970 in either epoch unit, 16.7 hours as seconds from now: no unit fits.
		expect(resetUnitOf(60_000, T, 60_000)).toBeUndefined();
		// At the edges: up to a window and the Date's resolution ahead, a resolution behind.
		expect(resetUnitOf(61, T, 60_000)).toBe('secondsFromNow');
		expect(resetUnitOf(62, T, 60_000)).toBeUndefined();
		expect(resetUnitOf(T - DATE_RESOLUTION_MS, T, 60_000)).toBe('epochMs');
		expect(resetUnitOf(T - DATE_RESOLUTION_MS - 1, T, 60_000)).toBeUndefined();
		expect(resetUnitOf(120, T, 0)).toBeUndefined();
		expect(resetUnitOf(60, T, 0)).toBe('secondsFromNow');
	});

	it('reads the reset in the unit decided or set, and not at all when auto finds none', () => {
		const headers = { 'x-ratelimit-reset': '60000', 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '100', date: httpDate(T) };
		expect(readRateAnswer(headers, 429, T, 'auto', 60_000)).toEqual({ status: 429, limit: 100, remaining: 0 });
		expect(readRateAnswer({ 'x-ratelimit-reset': '60000' }, 200, T, 'epochMs', 60_000).resetAt).toBe(60_000);
		expect(readRateAnswer({ 'x-ratelimit-reset': '20' }, 200, T, 'secondsFromNow', 60_000).resetAt).toBe(T + 20_000);
		expect(readRateAnswer({ 'x-ratelimit-reset': [String(T / 1000 + 5)] }, 200, T, 'auto', 60_000)).toMatchObject({
			resetAt: T + 5000,
			resetUnit: 'epochSeconds',
		});
	});

	it("reads times against the answer's Date header: a service clock ahead or behind is read as it is", () => {
		// The service's clock 5 s behind: its reset 10 s after its Date is 10 s from now here.
		const behind = { date: httpDate(T - 5000), 'x-ratelimit-reset': String(T - 5000 + 10_000) };
		expect(readRateAnswer(behind, 200, T, 'epochMs', 60_000).resetAt).toBe(T + 10_000);
		const ahead = { date: httpDate(T + 30_000), 'retry-after': httpDate(T + 33_000) };
		expect(readRateAnswer(ahead, 429, T, 'auto', 60_000).retryAfterMs).toBe(3000);
		// Without a Date header, this machine's clock.
		expect(readRateAnswer({ 'retry-after': httpDate(T + 3000) }, 429, T, 'auto', 60_000).retryAfterMs).toBe(3000);
		expect(readRateAnswer({ 'retry-after': '2' }, 429, T, 'auto', 60_000).retryAfterMs).toBe(2000);
		expect(readRateAnswer({ 'retry-after': 'soon' }, 429, T, 'auto', 60_000).retryAfterMs).toBeUndefined();
	});
});

describe('rule 3: a window the service announced ends at its reset', () => {
	it('counts no answer from before a reset that has passed, and resumes at the reset when that comes first', () => {
		// In step (no learning call), so the reset alone decides.
		const spent = figures({ countedFrom: [T - 3000, T - 2000, T - 1000], resetAt: T + 5000, inStepUntil: T + 50_000 });
		expect(readyAt(spent, settings(), T)).toBe(T + 5000);
		expect(readyAt(spent, settings(), T + 5000)).toBe(T + 5000);
		expect(readyAt({ ...spent, countedFrom: [T - 3000, T - 2000, T + 5000] }, settings(), T + 5000)).toBe(T + 5000);
		expect(readyAt({ ...spent, countedFrom: [T - 3000, T + 5000, T + 5000] }, settings(), T + 5001)).toBe(T + 5001);
	});
});

describe('rule 10: the first call sent as a window began keeps the budget in step', () => {
	const s = settings({ limit: 100, windowMs: 60_000 });
	const learnt = async () => {
		const budget = new RateBudget();
		budget.settle(await budget.acquire(s), { status: 429, retryAfterMs: 30_000 }, s, T);
		return budget;
	};

	it('until a window after its answer (its window began before it arrived), and so on from each such end', async () => {
		const budget = await learnt();
		budget.settle({ at: T + 30_000 + IN_STEP_MS }, { status: 200 }, s, T + 32_100);
		expect(IN_STEP_MS).toBe(2000);
		expect(budget.figures()).toMatchObject({ resetAt: T + 30_000, inStepUntil: T + 92_100 });
		// Later answers in that window move it no more: their calls went before its end.
		budget.settle({ at: T + 32_050 }, { status: 200 }, s, T + 33_000);
		expect(budget.figures().inStepUntil).toBe(T + 92_100);
		budget.settle({ at: T + 92_200 }, { status: 200 }, s, T + 92_300);
		expect(budget.figures().inStepUntil).toBe(T + 152_300);
	});

	it('not for a call sent later than that (it may follow a pause), before the end, or with no end known', async () => {
		const late = await learnt();
		late.settle({ at: T + 30_000 + IN_STEP_MS + 1 }, { status: 200 }, s, T + 32_100);
		expect(late.figures().inStepUntil).toBe(0);
		const early = await learnt();
		early.settle({ at: T + 29_999 }, { status: 200 }, s, T + 30_100);
		expect(early.figures().inStepUntil).toBe(0);
		const fresh = new RateBudget();
		fresh.settle({ at: T }, { status: 200 }, s, T + 100);
		expect(fresh.figures().inStepUntil).toBe(0);
	});

	it('counts every answer of its window still: an end it keeps step by is not a reset', () => {
		const inStep = figures({ countedFrom: [T - 1000, T - 500, T - 100], resetAt: T - 60_000, inStepUntil: T + 5000 });
		expect(readyAt(inStep, settings(), T)).toBe(T - 1000 + 60_000);
		expect(readyAt({ ...inStep, inStepUntil: T - 2000, inFlight: 1 }, settings(), T)).toBe(T - 500 + 60_000);
		// Out of step, the one call more that learns the window goes.
		expect(readyAt({ ...inStep, inStepUntil: T - 2000 }, settings(), T)).toBe(T);
	});
});

describe('rule 10: while no window end is ahead, one call more goes, alone', () => {
	const spent = figures({ countedFrom: [T - 3000, T - 2000, T - 1000] });

	it('lets one call beyond the pace go when nothing is on its way and no end is ahead', () => {
		expect(readyAt(spent, settings(), T)).toBe(T);
		expect(readyAt({ ...spent, resetAt: T - 5000 }, settings(), T)).toBe(T);
		expect(readyAt({ ...spent, resetAt: T + 5000 }, settings(), T)).toBe(T + 5000);
		// With a call on its way the pace holds as ever: the next goes when an answer is a window old.
		expect(readyAt({ ...spent, inFlight: 1 }, settings(), T)).toBe(T - 2000 + 60_000);
		expect(readyAt({ ...spent, countedFrom: [T - 3000, T - 2000, T - 1000, T - 500] }, settings({ limit: 3 }), T)).toBe(T - 3000 + 60_000);
	});

	it('learns the end from a refusal: the sooner of its reset and its Retry-After, and then keeps to the pace', async () => {
		const budget = new RateBudget();
		const s = settings({ limit: 100 });
		budget.settle(await budget.acquire(s), { status: 429, retryAfterMs: 30_000 }, s, T);
		expect(budget.figures().resetAt).toBe(T + 30_000);
		const other = new RateBudget();
		other.settle(await other.acquire(s), { status: 429, retryAfterMs: 30_000, resetAt: T + 29_000 }, s, T);
		expect(other.figures().resetAt).toBe(T + 29_000);
		// A reset in whole seconds up to a second late: Retry-After says sooner.
		other.settle(undefined, { status: 429, retryAfterMs: 1000, resetAt: T + 31_000 }, s, T + 29_500);
		expect(other.figures().resetAt).toBe(T + 30_500);
		other.settle(undefined, { status: 200, retryAfterMs: 5000 }, s, T + 29_600);
		expect(other.figures().resetAt).toBe(T + 30_500);
		expect(readyAt({ ...budget.figures(), heldUntil: 0, countedFrom: [T, T, T] }, settings(), T + 1)).toBe(T + 30_000);
	});
});

describe('rule 4: a 429 holds the key', () => {
	it('for the first present of Retry-After, the reset, else one window, 60 s where the window is 0', () => {
		expect(holdAfterRefusal({ status: 429, retryAfterMs: 3000, resetAt: T + 9000 }, 60_000, T, 0)).toBe(3000);
		expect(holdAfterRefusal({ status: 429, resetAt: T + 9000 }, 60_000, T, 0)).toBe(9000);
		expect(holdAfterRefusal({ status: 429 }, 5000, T, 0)).toBe(5000);
		expect(holdAfterRefusal({ status: 429 }, 0, T, 0)).toBe(UNKNOWN_WINDOW_HOLD_MS);
		expect(UNKNOWN_WINDOW_HOLD_MS).toBe(60_000);
	});

	it('for at least a second, and twice the last hold on a consecutive refusal', () => {
		expect(holdAfterRefusal({ status: 429, retryAfterMs: 0 }, 60_000, T, 0)).toBe(MIN_HOLD_MS);
		expect(MIN_HOLD_MS).toBe(1000);
		expect(holdAfterRefusal({ status: 429, retryAfterMs: 1000 }, 60_000, T, 1000)).toBe(2000);
		expect(holdAfterRefusal({ status: 429, retryAfterMs: 5000 }, 60_000, T, 2000)).toBe(5000);
	});

	it('lets no call go while held, and one at a time after a refusal until one succeeds', () => {
		expect(readyAt(figures({ heldUntil: T + 1 }), settings(), T)).toBe(T + 1);
		expect(readyAt(figures({ heldUntil: T, holdMs: 1000, inFlight: 1 }), settings(), T)).toBe(Infinity);
		expect(readyAt(figures({ heldUntil: T, holdMs: 1000 }), settings(), T)).toBe(T);
	});
});

describe('the budget', () => {
	const s = settings({ limit: 100, windowMs: 60_000 });
	const refusal = (retryAfter: string) => readRateAnswer({ 'retry-after': retryAfter }, 429, Date.now(), 'auto', 60_000);

	it('doubles its hold per key: for a call sent after the last refusal, not for calls already on their way', async () => {
		const budget = new RateBudget();
		// Both sent before the first refusal came (their send times on this test's clock, not the machine's).
		const first = { ...(await budget.acquire(s)), at: T - 20 };
		const second = { ...(await budget.acquire(s)), at: T - 10 };
		budget.settle(first, refusal('1'), s, T);
		expect(budget.heldForMs(T)).toBe(1000);
		budget.settle(second, refusal('1'), s, T + 10);
		expect(budget.heldForMs(T + 10)).toBe(1000);
		budget.settle({ at: T + 1010 }, refusal('1'), s, T + 1100);
		expect(budget.heldForMs(T + 1100)).toBe(2000);
		budget.settle({ at: T + 3100 }, readRateAnswer({}, 200, T + 3200, 'auto', 60_000), s, T + 3200);
		budget.settle({ at: T + 3300 }, refusal('1'), s, T + 3300);
		expect(budget.heldForMs(T + 3300)).toBe(1000);
	});

	it('holds every call until the reset once an answer says nothing is left', async () => {
		const budget = new RateBudget();
		const call = await budget.acquire(s);
		budget.settle(call, { status: 200, remaining: 0, resetAt: T + 7000 }, s, T);
		expect(budget.heldForMs(T)).toBe(7000);
		// Its own call counts until that reset too: a window before it.
		expect(budget.figures()).toMatchObject({ resetAt: T + 7000, holdMs: 0, inFlight: 0, countedFrom: [T + 7000 - 60_000] });
	});

	it('a call of an ended window does not count again once an answer of the next window tells that window\'s end', async () => {
		const budget = new RateBudget();
		const two = settings({ limit: 2, windowMs: 5000 });
		budget.settle(await budget.acquire(two), { status: 200, remaining: 1, resetAt: T + 5000 }, two, T + 100);
		budget.settle(await budget.acquire(two), { status: 200, remaining: 0, resetAt: T + 5000 }, two, T + 3000);
		expect(readyAt(budget.figures(), two, T + 5000)).toBe(T + 5000);
		// The next window opened with this call: its answer tells the next end; the call answered at T + 3000 was of
		// the window that ended at T + 5000, so a second call of the new window goes at once, not at T + 8000.
		budget.settle(await budget.acquire(two, { deadlineAt: T + 5100 }), { status: 200, remaining: 1, resetAt: T + 10_100 }, two, T + 5150);
		expect(readyAt(budget.figures(), two, T + 5150)).toBe(T + 5150);
	});

	it('an answer that tells an earlier end stops counting first, whatever order the answers came in', async () => {
		const budget = new RateBudget();
		const two = settings({ limit: 2, windowMs: 5000 });
		budget.settle(await budget.acquire(two), { status: 200 }, two, T + 100);
		budget.settle(await budget.acquire(two), { status: 200, remaining: 1, resetAt: T + 5000 }, two, T + 200);
		// The rules read the oldest first: the second answer's window ends first.
		expect(budget.figures().countedFrom).toEqual([T, T + 100]);
	});

	it('holds nothing where its own pace is spent: that waits until its oldest call is a window old', async () => {
		const budget = new RateBudget();
		const two = settings({ limit: 2, windowMs: 5000 });
		budget.settle(await budget.acquire(two), { status: 200, remaining: 1, resetAt: T + 5900 }, two, T + 100);
		budget.settle(await budget.acquire(two), { status: 200, remaining: 0, resetAt: T + 5900 }, two, T + 200);
		expect(budget.heldForMs(T + 200)).toBe(0);
		expect(readyAt(budget.figures(), two, T + 200)).toBe(T + 5100);
	});

	it('holds no longer than a window after that answer: its call went in the window it speaks of', async () => {
		const budget = new RateBudget();
		const short = settings({ limit: 100, windowMs: 5000 });
		budget.settle(await budget.acquire(short), { status: 200, remaining: 0, resetAt: T + 6000 }, short, T);
		expect(budget.heldForMs(T)).toBe(5000);
		budget.settle(undefined, { status: 200, remaining: 0, resetAt: T + 4000 }, short, T);
		expect(budget.heldForMs(T)).toBe(5000);
		const unknownWindow = new RateBudget();
		unknownWindow.settle(undefined, { status: 200, remaining: 0, resetAt: T + 6000 }, settings({ windowMs: 0 }), T);
		expect(unknownWindow.heldForMs(T)).toBe(6000);
	});

	it('decides the reset unit once: later answers are read in it', async () => {
		const budget = new RateBudget();
		expect(budget.unitFor(s)).toBe('auto');
		budget.settle(undefined, { status: 200, resetAt: T, resetUnit: 'epochMs' }, s, T);
		budget.settle(undefined, { status: 200, resetAt: T, resetUnit: 'secondsFromNow' }, s, T);
		expect(budget.unitFor(s)).toBe('epochMs');
		expect(budget.unitFor({ ...s, resetUnit: 'epochSeconds' })).toBe('epochSeconds');
	});

	it('keeps no more answers than the limit and the one call more that learns the window', async () => {
		const budget = new RateBudget();
		const small = settings({ limit: 2 });
		for (let i = 0; i < 5; i++) budget.settle(await budget.acquire(settings({ limit: 5 })), { status: 200 }, small, T + i);
		expect(budget.figures().countedFrom).toEqual([T + 2, T + 3, T + 4]);
		budget.settle({ at: T + 8 }, undefined, small, T + 9);
		expect(budget.figures()).toMatchObject({ inFlight: 0, countedFrom: [T + 3, T + 4, T + 9] });
	});

	it('sends calls in the order they came, a refused call back at the head of the queue', async () => {
		const one = settings({ limit: 1, windowMs: 0 });
		const budget = new RateBudget();
		const order: string[] = [];
		const first = await budget.acquire(one);
		const waiting = ['a', 'b'].map(async (name) => {
			const reservation = await budget.acquire(one);
			order.push(name);
			budget.settle(reservation, { status: 200 }, one);
		});
		const refused = budget.acquire(one, { first: true }).then((reservation) => {
			order.push('refused');
			budget.settle(reservation, { status: 200 }, one);
		});
		budget.settle(first, { status: 200 }, one);
		await Promise.all([...waiting, refused]);
		expect(order).toEqual(['refused', 'a', 'b']);
	});

	it('past its deadline a call fails naming the wait it would need, and takes no place', async () => {
		const budget = new RateBudget();
		const call = await budget.acquire(s);
		budget.settle(call, refusal('5'), s);
		const error = await budget.acquire(s, { deadlineAt: Date.now() + 1000 }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(RateWaitTooLong);
		expect((error as RateWaitTooLong).neededMs).toBeGreaterThan(4900);
		expect(budget.figures().inFlight).toBe(0);
	});

	it('a call waiting behind others leaves at its deadline, saying it would go only after them', async () => {
		const one = settings({ limit: 1, windowMs: 0 });
		const budget = new RateBudget();
		await budget.acquire(one);
		const { result } = await onControlledClock(async () => await budget.acquire(one, { deadlineAt: Date.now() + 500 }).catch((e: unknown) => e));
		expect(result).toBeInstanceOf(RateWaitTooLong);
		expect((result as RateWaitTooLong).neededMs).toBeUndefined();
		expect((result as Error).message).toBe('The rate limit allows this call later');
	});

	it('when its execution is cancelled leaves at once and is never sent, even after the call ahead is answered', async () => {
		const one = settings({ limit: 1, windowMs: 0 });
		const budget = new RateBudget();
		const ahead = await budget.acquire(one);
		const abort = new AbortController();
		const behind = budget.acquire(one, { signal: abort.signal });
		abort.abort();
		await expect(behind).rejects.toThrow();
		budget.settle(ahead, { status: 200 }, one);
		expect(budget.figures().inFlight).toBe(0);
	});

	it('sits out a hold on the clock, then lets the call go', async () => {
		const budget = new RateBudget();
		budget.settle(await budget.acquire(s), refusal('60'), s);
		const { elapsedMs } = await onControlledClock(async () => await budget.acquire(s));
		expect(elapsedMs).toBeGreaterThanOrEqual(59_900);
		expect(elapsedMs).toBeLessThan(61_000);
	});
});

describe('the budgets of this process', () => {
	beforeEach(() => resetBudgets());
	afterAll(() => resetBudgets());
	const s = settings();

	it('are one per account and kind: another key is another budget, host case and a default port are not', async () => {
		const budget = getBudget('http://example.com', 'k', 'read', s);
		// In use (a budget that never had a call tells nothing, and may be dropped).
		await budget.acquire(s);
		expect(getBudget('http://EXAMPLE.com:80/', 'k', 'read', s)).toBe(budget);
		expect(getBudget('http://example.com', 'other', 'read', s)).not.toBe(budget);
		expect(getBudget('http://example.com', 'k', 'write', s)).not.toBe(budget);
		expect(budgetKey('http://Example.com:80/', 'k')).toBe(budgetKey('http://example.com', 'k'));
		expect(budgetKey('not a url', 'k')).toMatch(/^not a url\|[0-9a-f]{32}$/);
	});

	it('are dropped once idle for three windows, so rotated keys do not pile up', async () => {
		const budget = getBudget('http://example.com', 'old', 'read', settings({ windowMs: 1000 }));
		const reservation = await budget.acquire(s);
		// The answer's time is given, so the idle bounds below do not depend on the milliseconds the test takes.
		const now = Date.now();
		budget.settle(reservation, { status: 200 }, s, now);
		expect(budget.isIdle(now + 3000, 1000)).toBe(false);
		expect(budget.isIdle(now + 3100, 1000)).toBe(true);
		await new Promise((resolve) => setTimeout(resolve, 3100));
		getBudget('http://example.com', 'new', 'read', settings({ windowMs: 1000 }));
		expect(budgetCount()).toBe(1);
	});
});

describe('the edges of each rule', () => {
	it('drops a budget once idle for three windows, 60 s each where the window is 0', () => {
		resetBudgets();
		jest.useFakeTimers({ now: T });
		try {
			const zero = settings({ windowMs: 0 });
			getBudget('http://example.com', 'a', 'read', zero).settle({ at: T }, { status: 200 }, zero, T);
			jest.setSystemTime(T + 180_000);
			getBudget('http://example.com', 'b', 'read', zero).settle({ at: T }, { status: 200 }, zero, T + 180_000);
			expect(budgetCount()).toBe(2);
			jest.setSystemTime(T + 180_001);
			getBudget('http://example.com', 'c', 'read', settings({ windowMs: 1000 }));
			expect(budgetCount()).toBe(2);
			jest.setSystemTime(T + 183_001);
			getBudget('http://example.com', 'c', 'read', settings({ windowMs: 1000 }));
			expect(budgetCount()).toBe(1);
		} finally {
			jest.useRealTimers();
			resetBudgets();
		}
	});

	const s = settings({ limit: 3, windowMs: 60_000 });

	it('counts an answer at the passed reset itself as of the ended window, and one after it as of the new', () => {
		expect(readyAt(figures({ countedFrom: [T - 10, T - 5, T - 5], resetAt: T - 10 }), s, T)).toBe(T);
		// All three count: no end is ahead, so a fourth goes only alone, to learn where the window ends (rule 10).
		expect(readyAt(figures({ countedFrom: [T - 10, T - 5, T - 5], resetAt: T - 11, inFlight: 1 }), s, T)).toBe(T - 5 + 60_000);
		expect(readyAt(figures({ countedFrom: [T - 10, T - 5, T - 5], resetAt: T - 11 }), s, T)).toBe(T);
	});

	it('paces nothing with the window at 0, even on answers stamped later than now', () => {
		expect(readyAt(figures({ countedFrom: [T + 5, T + 5, T + 5] }), settings({ windowMs: 0 }), T)).toBe(T);
		expect(readyAt(paced({ countedFrom: [T + 5, T + 5, T + 5] }), s, T)).toBe(T + 5 + 60_000);
		expect(readyAt(figures({ countedFrom: [T + 5, T + 5, T + 5], resetAt: T, inFlight: 1 }), s, T)).toBe(T + 5 + 60_000);
		expect(readyAt(figures({ countedFrom: [T + 5, T + 5, T + 5], resetAt: T + 6 }), s, T)).toBe(T + 6);
	});

	it('takes the credential window as the reset horizon where it is set, 60 s where it is 0', () => {
		expect(resetUnitOf(30, T, 5000)).toBeUndefined();
		expect(resetUnitOf(6, T, 5000)).toBe('secondsFromNow');
	});

	it('reads blank headers as absent, and no reset as no reset in any unit', () => {
		expect(readRateAnswer({ 'retry-after': '  ', 'x-ratelimit-remaining': '' }, 429, T, 'auto', 60_000)).toStrictEqual({
			status: 429,
			limit: undefined,
			remaining: undefined,
		});
		expect(readRateAnswer({ 'x-ratelimit-limit': '7' }, 200, T, 'epochMs', 60_000)).toStrictEqual({ status: 200, limit: 7, remaining: undefined });
	});

	it("reads times against this clock while the Date is within its resolution, and against the Date from a second apart", () => {
		const retry = httpDate(T + 3000);
		expect(readRateAnswer({ date: httpDate(T), 'retry-after': retry }, 429, T + 300, 'auto', 60_000).retryAfterMs).toBe(2700);
		expect(readRateAnswer({ date: httpDate(T), 'retry-after': retry }, 429, T + 999, 'auto', 60_000).retryAfterMs).toBe(2001);
		expect(readRateAnswer({ date: httpDate(T), 'retry-after': retry }, 429, T + 1000, 'auto', 60_000).retryAfterMs).toBe(3000);
		expect(readRateAnswer({ date: httpDate(T), 'retry-after': retry }, 429, T - 1000, 'auto', 60_000).retryAfterMs).toBe(3000);
	});

	it('names the wait a too-late call would need, or that it would go after the calls ahead', () => {
		expect(new RateWaitTooLong(4999.6).message).toBe('The rate limit allows this call in 5000 ms');
		expect(new RateWaitTooLong().message).toBe('The rate limit allows this call later');
	});

	it('keeps what an answer without figures does not say, and a limit of 0 is no limit', async () => {
		const budget = new RateBudget();
		budget.settle(undefined, { status: 200, limit: 40, resetAt: T + 5000 }, s, T);
		budget.settle(undefined, { status: 200, limit: 0 }, s, T);
		budget.settle(undefined, { status: 200, remaining: 5, resetAt: T + 4000 }, s, T);
		budget.settle(undefined, { status: 200, remaining: 0 }, s, T);
		expect(budget.figures()).toEqual({ inFlight: 0, countedFrom: [], heldUntil: 0, holdMs: 0, resetAt: T + 5000, announcedLimit: 40, inStepUntil: 0 });
		budget.settle(undefined, { status: 429, retryAfterMs: 2000 }, s, T);
		expect(budget.heldForMs(T)).toBe(2000);
		expect(budget.figures().countedFrom).toEqual([]);
	});

	it('doubles for a call sent at the very moment of the last refusal, and never shortens a hold', async () => {
		const budget = new RateBudget();
		const before = Date.now();
		const call = await budget.acquire(s);
		expect(call.at).toBeGreaterThanOrEqual(before);
		budget.settle({ at: T - 1 }, { status: 429, retryAfterMs: 1000 }, s, T);
		budget.settle({ at: T }, { status: 429, retryAfterMs: 1000 }, s, T + 50);
		expect(budget.heldForMs(T + 50)).toBe(2000);
		budget.settle({ at: T - 5 }, { status: 429, retryAfterMs: 1000 }, s, T + 60);
		expect(budget.heldForMs(T + 60)).toBe(1990);
	});

	it('is idle only with nothing waiting, in flight or held, a fresh budget included', async () => {
		const fresh = new RateBudget();
		expect(fresh.isIdle(T, 1000)).toBe(true);
		const held = new RateBudget();
		held.settle(undefined, { status: 429, retryAfterMs: 60_000 }, s, T);
		expect(held.isIdle(T + 59_999, 1000)).toBe(false);
		expect(held.isIdle(T + 60_000, 1000)).toBe(true);
		const busy = new RateBudget();
		await busy.acquire(s);
		expect(busy.isIdle(Date.now() + 10_000, 1000)).toBe(false);
	});

	it('goes for a call that is ready even past its deadline, and a cancelled one never goes', async () => {
		const budget = new RateBudget();
		await expect(budget.acquire(s, { deadlineAt: Date.now() - 1 })).resolves.toHaveProperty('at');
		const abort = new AbortController();
		abort.abort();
		await expect(budget.acquire(s, { signal: abort.signal })).rejects.toThrow();
		expect(budget.figures().inFlight).toBe(1);
	});

	it('sits out a hold that ends exactly at the deadline, and a call behind others waits until its deadline', async () => {
		const budget = new RateBudget();
		const { result, elapsedMs } = await onControlledClock(async () => {
			budget.settle(undefined, { status: 429, retryAfterMs: 1000 }, s);
			return await budget.acquire(s, { deadlineAt: Date.now() + 1000 });
		});
		expect(result).toHaveProperty('at');
		expect(elapsedMs).toBeGreaterThanOrEqual(1000);
		const one = settings({ limit: 1, windowMs: 0 });
		const queue = new RateBudget();
		await queue.acquire(one);
		const behind = await onControlledClock(async () => await queue.acquire(one, { deadlineAt: Date.now() + 500 }).catch((e: unknown) => e));
		expect(behind.result).toBeInstanceOf(RateWaitTooLong);
		expect(behind.elapsedMs).toBeGreaterThanOrEqual(500);
	});

	it('names a too-late wait from now, not beyond it', async () => {
		const budget = new RateBudget();
		budget.settle(undefined, { status: 429, retryAfterMs: 5000 }, s);
		const error = (await budget.acquire(s, { deadlineAt: Date.now() + 1000 }).catch((e: unknown) => e)) as RateWaitTooLong;
		expect(error.neededMs).toBeLessThanOrEqual(5000);
	});

	it('reads a credential setting left empty, null, not a number or below its minimum as the documented value', () => {
		for (const value of [null, '', 'abc', 0, -5]) expect(rateSettings({ readsPerWindow: value, clientsSharingKey: value }, 'read')).toMatchObject({ limit: 200, processes: 1 });
		expect(rateSettings({ readsPerWindow: '7', writesPerWindow: 3, rateLimitWindowSeconds: '0' }, 'read')).toMatchObject({ limit: 7, windowMs: 0 });
		for (const value of [-1, null, '', 'abc']) expect(rateSettings({ rateLimitWindowSeconds: value }, 'read').windowMs).toBe(60_000);
		expect(rateSettings({ rateLimitWindowSeconds: 0 }, 'read').windowMs).toBe(0);
	});

	it('counts GET and HEAD as reads, any other method as a write', () => {
		expect(['GET', 'get', 'HEAD', 'POST', 'delete', 'PATCH'].map(callKind)).toEqual(['read', 'read', 'read', 'write', 'write', 'write']);
	});

	it('waits on n8n\'s abortable sleep: a cancelled wait ends at once; the cancel signal comes from the context when it has one', async () => {
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
