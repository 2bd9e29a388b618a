/**
 * A fair share across processes without a shared store: each budget reads from X-RateLimit-Remaining
 * how many calls other clients of the key make, and leaves them the last calls of a window.
 */
import { OthersEstimate } from '../../nodes/Prospecting/transport/othersEstimate';
import { RateBudget } from '../../nodes/Prospecting/transport/rateLimiter';

/** Feeds answers of one window, each `fall` below the previous, with `inFlight` own calls still out. */
function feed(estimate: OthersEstimate, start: number, falls: number[], inFlight = 0): number {
	let lowest = start;
	for (const fall of falls) {
		estimate.observe(lowest, lowest - fall, inFlight);
		lowest -= fall;
	}
	return lowest;
}

describe('the estimate of the other clients', () => {
	it('sees no other client when the count falls by one per own call', () => {
		const estimate = new OthersEstimate();
		feed(estimate, 100, [1, 1, 1, 1, 1]);
		expect(estimate.reserve(100)).toBe(0);
	});

	it('sees three others when the count falls by four per own call, one by one', () => {
		const estimate = new OthersEstimate();
		feed(estimate, 100, [4, 4, 4, 4, 4, 4]);
		expect(estimate.reserve(100)).toBe(3);
	});

	it("takes the process's own calls in flight as its own, so one busy process sees no others", () => {
		const estimate = new OthersEstimate();
		feed(estimate, 200, [10, 10, 10, 10], 9);
		expect(estimate.reserve(200)).toBe(0);
	});

	it('ignores an answer counted before the lowest figure (answers out of order)', () => {
		const estimate = new OthersEstimate();
		estimate.observe(90, 95, 0);
		expect(estimate.othersPerRoundTrip).toBe(0);
	});

	it('grows back to the whole window when the others stop', () => {
		const estimate = new OthersEstimate();
		const lowest = feed(estimate, 100, [3, 3, 3, 3]);
		expect(estimate.reserve(100)).toBe(2);
		feed(estimate, lowest, [1, 1, 1, 1]);
		expect(estimate.reserve(100)).toBe(0);
	});

	it('never leaves more than half the limit to others', () => {
		const estimate = new OthersEstimate();
		feed(estimate, 100, [40, 40]);
		expect(estimate.reserve(10)).toBe(5);
	});
});

/**
 * One window of a service counting calls of several clients, each a budget making one call at a time
 * (a worker at concurrency 1). Each round every client receives the answer of its last call, then sends
 * its next if its budget lets it; the service counts calls in that order, so a client's answer is a
 * round old by the time it decides again, as over a network.
 */
async function oneWindow(clients: number, limit: number) {
	const resetAt = Date.now() + 60_000;
	const budgets = Array.from({ length: clients }, () => new RateBudget());
	const pending: Array<{ status: number; remaining: number } | undefined> = budgets.map(
		() => undefined,
	);
	const waiting = budgets.map(() => false);
	let counted = 0;
	let refused = 0;
	const settle = async () => await new Promise((resolve) => setImmediate(resolve));
	for (let round = 0; round < limit * 2 && waiting.some((done) => !done); round++) {
		for (const [index, budget] of budgets.entries()) {
			const answer = pending[index];
			if (answer) {
				budget.release(
					{
						'x-ratelimit-limit': String(limit),
						'x-ratelimit-remaining': String(answer.remaining),
						'x-ratelimit-reset': String(resetAt),
					},
					answer.status,
				);
				pending[index] = undefined;
			}
			if (waiting[index]) continue;
			// A budget that holds the call waits for the window's end: that client is done with this window.
			const abort = new AbortController();
			let sent = false;
			const acquired = budget.acquire(undefined, abort.signal).then(
				() => (sent = true),
				() => undefined,
			);
			await settle();
			if (!sent) {
				abort.abort();
				await acquired;
				waiting[index] = true;
				continue;
			}
			if (counted < limit) {
				counted += 1;
				pending[index] = { status: 200, remaining: limit - counted };
			} else {
				refused += 1;
				pending[index] = { status: 429, remaining: 0 };
			}
		}
	}
	return { counted, refused, budgets };
}

describe('several clients of one key in one window, each with its own budget', () => {
	it.each([2, 4])(
		'%i clients get no 429 and use all but their reserve of the window',
		async (clients) => {
			const { counted, refused } = await oneWindow(clients, 60);
			expect(refused).toBe(0);
			expect(counted).toBeGreaterThanOrEqual(60 - (clients - 1));
		},
	);

	it('a client alone uses the whole window', async () => {
		const { counted, refused } = await oneWindow(1, 60);
		expect(refused).toBe(0);
		expect(counted).toBe(60);
	});
});
