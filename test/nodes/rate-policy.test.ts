/**
 * The rate policy's rules where the service sends no X-RateLimit-* on its successful answers (the spec documents them
 * on 429 answers only), its 429 rules, and the budgets' bookkeeping: one per account and kind, dropped when idle.
 */
import { readRateAnswer } from '../../nodes/Prospecting/transport/rateHeaders';
import { budgetKey, getBudget, budgetCount, resetBudgets } from '../../nodes/Prospecting/transport/rateBudgets';
import { RateWaitTooLong } from '../../nodes/Prospecting/transport/callQueue';
import { RateBudget, type RateSettings } from '../../nodes/Prospecting/transport/ratePolicy';
import { decideRefusal } from '../../nodes/Prospecting/transport/refusal';
import { onControlledClock } from '../../dev/harness/clock';

const newBudget = (settings: Partial<RateSettings> = {}) => new RateBudget({ limit: 3, windowMs: 1_000, clients: 1, ...settings });
const settle = async () => await new Promise((resolve) => setImmediate(resolve));

/** Sends `calls` calls through the budget one after another, each answered without rate headers; returns when each went. */
async function sendAll(budget: RateBudget, calls: number): Promise<number[]> {
	const sentAt: number[] = [];
	for (let call = 0; call < calls; call++) {
		const reservation = await budget.acquire();
		sentAt.push(Date.now());
		budget.settle(reservation, readRateAnswer({}, 200));
	}
	return sentAt;
}

describe('without rate headers on successful answers', () => {
	it("never lets more than a window's calls go within any window's length, so no fixed window can refuse them", async () => {
		const { result: sentAt } = await onControlledClock(async () => await sendAll(newBudget(), 10));
		for (let call = 3; call < sentAt.length; call++) {
			// Call n and call n - 3 are never in one window's length: at most 3 calls fall in any window, whatever its phase.
			expect(sentAt[call] - sentAt[call - 3]).toBeGreaterThanOrEqual(1_000);
		}
		expect(sentAt.slice(0, 3).every((at) => at - sentAt[0] < 1_000)).toBe(true);
	});

	it('takes its part of the limits when the credential says several n8n processes share the key', async () => {
		const { result: sentAt } = await onControlledClock(async () => await sendAll(newBudget({ limit: 4, clients: 2 }), 6));
		// Two calls per window's length: the other process has the other two.
		expect(sentAt[2] - sentAt[0]).toBeGreaterThanOrEqual(1_000);
		expect(sentAt[4] - sentAt[2]).toBeGreaterThanOrEqual(1_000);
	});

	it("where the credential says windows begin on the clock, sends a new window's calls as soon as it begins and never more than a window's calls in one", async () => {
		const { result: sentAt } = await onControlledClock(async () => {
			// Half-way into a window of the clock, as a spike begins.
			await new Promise((resolve) => setTimeout(resolve, 1_500 - (Date.now() % 1_000)));
			return await sendAll(newBudget({ clockWindows: true }), 9);
		});
		const first = Math.floor(sentAt[0] / 1_000);
		expect(sentAt.map((at) => Math.floor(at / 1_000) - first)).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2]);
		// Paced on any window's length instead, the fourth call would wait until half-way into the next window.
		expect([sentAt[3] % 1_000, sentAt[6] % 1_000].every((intoWindow) => intoWindow < 100)).toBe(true);
	});

	it("adopts the limit a 429 announces when it is lower than the credential's", async () => {
		const budget = newBudget({ limit: 100 });
		const reservation = await budget.acquire();
		budget.settle(reservation, readRateAnswer({ 'x-ratelimit-limit': '2', 'retry-after': '0' }, 429));
		expect(budget.snapshot().limit).toBe(2);
	});
});

describe('a 429', () => {
	it('with neither Retry-After nor a reset holds every call of the key for one whole window', async () => {
		const { result: waited } = await onControlledClock(async () => {
			const budget = newBudget({ windowMs: 30_000 });
			budget.settle(await budget.acquire(), readRateAnswer({}, 429));
			return (await budget.acquire()).waitedMs;
		});
		expect(waited).toBeGreaterThanOrEqual(29_000);
	});

	it('with Retry-After as an HTTP date holds the calls until that date', async () => {
		const budget = newBudget();
		const until = new Date(Math.ceil(Date.now() / 1000) * 1000 + 5_000);
		budget.settle(await budget.acquire(), readRateAnswer({ 'retry-after': until.toUTCString() }, 429));
		// Read against this machine's clock a moment apart: the same instant, to a few ms.
		expect(Math.abs(budget.snapshot().heldUntil - until.getTime())).toBeLessThan(50);
	});

	it('with a Retry-After of five minutes is sat out in full: no call of the key goes before it', async () => {
		const { result: waited } = await onControlledClock(async () => {
			const budget = newBudget({ windowMs: 60_000 });
			budget.settle(await budget.acquire(), readRateAnswer({ 'retry-after': '300' }, 429));
			return (await budget.acquire()).waitedMs;
		});
		expect(waited).toBeGreaterThanOrEqual(299_000);
	});

	it('makes the refused call double its own wait on a repeated refusal, and says when that does not fit', () => {
		const answer = readRateAnswer({ 'retry-after': '2' }, 429);
		expect(decideRefusal(answer, { refusals: 1, lastWaitMs: 0, leftMs: 10_000 }, 60_000)).toEqual({ waitMs: 2_000, fits: true });
		expect(decideRefusal(answer, { refusals: 2, lastWaitMs: 2_000, leftMs: 10_000 }, 60_000)).toEqual({ waitMs: 4_000, fits: true });
		expect(decideRefusal(answer, { refusals: 3, lastWaitMs: 4_000, leftMs: 6_000 }, 60_000)).toEqual({ waitMs: 8_000, fits: false });
	});
});

describe('a call that leaves the queue', () => {
	it('when its execution is cancelled leaves at once and is never sent, even after the call ahead is answered', async () => {
		const budget = newBudget();
		const first = await budget.acquire(); // asks: nothing is known of the window yet
		const cancel = new AbortController();
		const queued = budget.acquire({ signal: cancel.signal });
		await settle();
		cancel.abort();
		await expect(queued).rejects.toThrow();
		budget.settle(first, readRateAnswer({}, 200));
		await settle();
		expect(budget.snapshot().inFlight).toBe(0);
	});

	it('past its deadline fails naming the wait it would need, and gives back what it did not use', async () => {
		const budget = newBudget({ limit: 1 });
		budget.settle(await budget.acquire(), readRateAnswer({}, 200));
		const late = budget.acquire({ deadlineAt: Date.now() });
		await expect(late).rejects.toBeInstanceOf(RateWaitTooLong);
		const refused = (await late.catch((error: unknown) => error)) as RateWaitTooLong;
		expect(refused.neededMs).toBeGreaterThan(500);
		expect(budget.snapshot().inFlight).toBe(0);
	});
});

describe('the budgets of this process', () => {
	beforeEach(() => resetBudgets());
	const settings: RateSettings = { limit: 200, windowMs: 60_000, clients: 1 };

	it('are one per account: another key is another budget, host case and a default port are not', () => {
		getBudget('https://api.example.com', 'key-a', 'read', settings);
		getBudget('https://API.example.com:443', 'key-a', 'read', settings);
		getBudget('https://api.example.com', 'key-b', 'read', settings);
		expect(budgetCount()).toBe(2);
		expect(budgetKey('http://Example.com:80/', 'k')).toBe(budgetKey('http://example.com', 'k'));
	});

	it('keep their own window length when another credential of the same account gives another', () => {
		const first = getBudget('https://api.example.com', 'key-a', 'read', settings);
		const second = getBudget('https://api.example.com', 'key-a', 'read', { ...settings, windowMs: 5_000 });
		expect(second).toBe(first);
		expect(second.settings.windowMs).toBe(60_000);
	});

	it('are dropped once idle for a few windows, so rotated keys do not pile up', async () => {
		await onControlledClock(async () => {
			const short = { ...settings, windowMs: 100 };
			const budget = getBudget('https://api.example.com', 'old-key', 'read', short);
			budget.settle(await budget.acquire(), readRateAnswer({}, 200));
			await new Promise((resolve) => setTimeout(resolve, 1_000));
			getBudget('https://api.example.com', 'new-key', 'read', short);
		});
		expect(budgetCount()).toBe(1);
	});
});
