/**
 * Queue mode: each n8n worker keeps its own budget (n8n gives a community node no shared store) and takes its part of
 * the limits, as the credential's "n8n Processes Sharing This Key" says, headers or not.
 */
import { Deadline } from '../../nodes/Prospecting/transport/deadline';
import { RateBudget, type Reservation } from '../../nodes/Prospecting/transport/rateBudget';
import { readRateAnswer, type RateSettings } from '../../nodes/Prospecting/transport/rateRules';
import { onControlledClock } from '../../dev/harness/clock';
import { spikeAcrossWorkers } from '../../dev/spike-model';

/**
 * One window of a service counting calls of several clients, each a budget making one call at a time
 * (a worker at concurrency 1). Each round every client receives the answer of its last call, then sends
 * its next if its budget lets it; the service counts calls in that order, so a client's answer is a
 * round old by the time it decides again, as over a network.
 */
async function oneWindow(clients: number, limit: number) {
	const resetAt = Date.now() + 60_000;
	const settings: RateSettings = { limit, windowMs: 60_000, processes: clients, resetUnit: 'auto' };
	const budgets = Array.from({ length: clients }, () => new RateBudget());
	const pending: Array<{ status: number; remaining: number; reservation: Reservation } | undefined> = budgets.map(
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
				const headers = {
					'x-ratelimit-limit': String(limit),
					'x-ratelimit-remaining': String(answer.remaining),
					'x-ratelimit-reset': String(resetAt),
				};
				budget.settle(answer.reservation, readRateAnswer(headers, answer.status, Date.now(), settings), settings);
				pending[index] = undefined;
			}
			if (waiting[index]) continue;
			// A budget that holds the call waits for the window's end: that client is done with this window.
			const abort = new AbortController();
			let reservation: Reservation | undefined;
			const acquired = budget.acquire(settings, new Deadline(Infinity), abort.signal).then(
				(reserved: Reservation) => (reservation = reserved),
				() => undefined,
			);
			await settle();
			if (!reservation) {
				abort.abort();
				await acquired;
				waiting[index] = true;
				continue;
			}
			if (counted < limit) {
				counted += 1;
				pending[index] = { status: 200, remaining: limit - counted, reservation };
			} else {
				refused += 1;
				pending[index] = { status: 429, remaining: 0, reservation };
			}
		}
	}
	return { counted, refused, budgets };
}

describe('several processes of one key in one window, each with its own budget and the processes setting', () => {
	it.each([2, 4])(
		'%i processes get no 429 and use all of the window between them',
		async (clients) => {
			const { counted, refused } = await oneWindow(clients, 60);
			expect(refused).toBe(0);
			expect(counted).toBe(60);
		},
	);

	it('a client alone uses the whole window', async () => {
		const { counted, refused } = await oneWindow(1, 60);
		expect(refused).toBe(0);
		expect(counted).toBe(60);
	});
});

describe('a spike across workers of one key, ten executions each, against one counter', () => {
	/** A call goes a margin (25 ms) after the end its budget learnt, and reaches the service one trip (≤ 300 ms) later. */
	const ONE_TRIP_AND_MARGIN_MS = 300 + 25 + 20;

	it.each([1, 2, 4, 8])(
		'%i worker(s) draw at most one 429 per worker in any window',
		async (workers) => {
			const { result } = await onControlledClock(async () => await spikeAcrossWorkers({ workers, executions: 80 }));
			expect(result.mostRefusedInOneWindow).toBeLessThanOrEqual(1);
		},
		30_000,
	);

	it.each([2, 4])(
		'%i workers whose answers wait behind stalls of their own (a loaded machine) draw at most one 429 per worker in any window',
		async (workers) => {
			const stall = { everyMs: 2000, forMs: 400 };
			const { result } = await onControlledClock(
				async () => await spikeAcrossWorkers({ workers, executions: 200, windowMs: 5000, tripMs: [5, 30], stall }),
			);
			expect(result.mostRefusedInOneWindow).toBeLessThanOrEqual(1);
		},
		30_000,
	);

	it.each([
		['50-300', [50, 300]],
		['100-600', [100, 600]],
	] as const)(
		'4 workers with trips of %s ms, each stalled 1 s in every 3 (answers held, then all at once), draw at most one 429 in any window, over ten runs',
		async (_, tripMs) => {
			const moreThanOne: Array<{ seed: number; most: number }> = [];
			for (let seed = 1; seed <= 10; seed++) {
				const stall = { everyMs: 3000, forMs: 1000 };
				const options = { workers: 4, executions: 400, windowMs: 5000, tripMs: [...tripMs] as [number, number], stall, seed: seed * 7919 + 4 };
				const { result } = await onControlledClock(async () => await spikeAcrossWorkers(options));
				if (result.mostRefusedInOneWindow > 1) moreThanOne.push({ seed, most: result.mostRefusedInOneWindow });
			}
			expect(moreThanOne).toEqual([]);
		},
		60_000,
	);

	it.each([2, 4])(
		'%i workers at unequal paces (one\'s trips up to twice another\'s) take at most one window more than their calls need',
		async (workers) => {
			const { result } = await onControlledClock(
				async () => await spikeAcrossWorkers({ workers, executions: 80, tripMs: [10, 60], slowerBy: 1 / (workers - 1) }),
			);
			// 160 calls at 40 a window need 4 windows.
			expect(result.callsPerWindow.length).toBeLessThanOrEqual(5);
		},
		30_000,
	);

	it.each([
		['in epoch ms', 'ms', 0],
		['in whole seconds', 's', 1000],
	] as const)(
		'with the reset %s, a worker that opened no window sends its first call of each window within one trip of its start, and the reset\'s rounding: no lateness carried from window to window',
		async (_, resetIn, roundingMs) => {
			for (const workers of [2, 4]) {
				const { result } = await onControlledClock(
					async () => await spikeAcrossWorkers({ workers, executions: 400, windowMs: 5000, tripMs: [50, 300], resetIn }),
				);
				expect(result.latestFirstCallMs).toBeLessThanOrEqual(roundingMs + ONE_TRIP_AND_MARGIN_MS);
			}
		},
		30_000,
	);

	it('a worker alone for the first 750 ms (n8n still taking the spike in) draws at most one 429 in any window when the others join, over ten runs', async () => {
		const moreThanOne: Array<{ seed: number; most: number }> = [];
		for (let seed = 1; seed <= 10; seed++) {
			const options = { workers: 4, executions: 200, windowMs: 5000, tripMs: [20, 100] as [number, number], firstAloneMs: 750, seed };
			const { result } = await onControlledClock(async () => await spikeAcrossWorkers(options));
			if (result.mostRefusedInOneWindow > 1) moreThanOne.push({ seed, most: result.mostRefusedInOneWindow });
		}
		expect(moreThanOne).toEqual([]);
	}, 60_000);

	it('4 workers sharing the key without the processes setting, headers on every answer: past the first window at most one 429 per worker in a window, and no hold longer than the service asked', async () => {
		const moreThanOne: Array<{ seed: number; refusedPerWindow: number[] }> = [];
		for (let seed = 1; seed <= 6; seed++) {
			const options = { workers: 4, executions: 200, windowMs: 5000, tripMs: [20, 100] as [number, number], processesStated: false, seed };
			const { result } = await onControlledClock(async () => await spikeAcrossWorkers(options));
			if (result.refusedPerWindow.slice(1).some((refused) => refused > 4)) moreThanOne.push({ seed, refusedPerWindow: result.refusedPerWindow });
			expect(result.longestHoldMs).toBeLessThanOrEqual(result.longestAskedMs);
		}
		expect(moreThanOne).toEqual([]);
	}, 60_000);

	it('a worker alone fills every window: the spike takes no more windows than its calls need', async () => {
		const { result } = await onControlledClock(async () => await spikeAcrossWorkers({ workers: 1, executions: 80 }));
		expect(result.callsPerWindow).toEqual([40, 40, 40, 40]);
	}, 30_000);

	it.each([2, 4])(
		'%i workers leave less than half a call per other worker unused in a window, on average, while executions are still waiting to start',
		async (workers) => {
			const { result } = await onControlledClock(async () => await spikeAcrossWorkers({ workers, executions: 200 }));
			const busy = result.callsPerWindow.slice(0, result.lastStartedIn);
			expect(busy.length).toBeGreaterThanOrEqual(6);
			const unusedPerWindow = busy.reduce((sum, calls) => sum + 40 - calls, 0) / busy.length;
			expect(unusedPerWindow).toBeLessThan((workers - 1) / 2);
		},
		30_000,
	);
});
