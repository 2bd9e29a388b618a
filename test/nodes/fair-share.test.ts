/**
 * A fair share across processes without a shared store: each budget reads from X-RateLimit-Remaining
 * how many calls other clients of the key make per call of its own, window by window, and keeps only
 * its share of what is left in flight.
 */
import { OthersEstimate } from '../../nodes/Prospecting/transport/othersShare';
import { readRateAnswer } from '../../nodes/Prospecting/transport/rateHeaders';
import { RateBudget, type RateSettings, type Reservation } from '../../nodes/Prospecting/transport/ratePolicy';
import { onControlledClock } from '../../dev/harness/clock';
import { spikeAcrossWorkers } from '../../dev/spike-model';

/** A budget with the service's documented limits unless the test says otherwise. */
const newBudget = (settings: Partial<RateSettings> = {}) => new RateBudget({ limit: 200, windowMs: 60_000, clients: 1, ...settings });
/** Gives a budget an answer with these headers (and its reservation, when it answers one). */
const release = (budget: RateBudget, headers: Record<string, string>, status: number, reservation?: Reservation) =>
	budget.settle(reservation, readRateAnswer(headers, status));

/**
 * A trip that says nothing here: these estimates know no window length, so a trip alone changes no share, and no
 * test waits that long for an answer.
 */
const TRIP_MS = 60_000;

/** An estimate of a window already open (enough answers that the gradual opening does not limit it). */
function openWindow(estimate = new OthersEstimate()): OthersEstimate {
	for (let i = 0; i < 100; i++) estimate.answered();
	return estimate;
}

/** The next window, already open. */
function nextWindow(estimate: OthersEstimate): void {
	estimate.turn();
	openWindow(estimate);
}

/** This process's calls of one window, each answered in turn with the count falling by `perCall` per own call. */
function ownCalls(estimate: OthersEstimate, limit: number, calls: number, perCall: number, tripMs = TRIP_MS): void {
	for (let order = 1; order <= calls; order++) estimate.observe(limit, limit - order * perCall, tripMs);
}

/** Near a window's end beside one other client: 38 of 40 counted, half of them this process's, 2 left. */
function nearEndWithOneOther(estimate: OthersEstimate): void {
	ownCalls(estimate, 40, 19, 2);
}

describe('the estimate of the other clients', () => {
	it('sees no other client when the count falls by one per own call, and keeps all that is left', () => {
		const estimate = openWindow();
		ownCalls(estimate, 100, 5, 1);
		expect(estimate.othersPerOwnCall).toBe(0);
		expect(estimate.share(95)).toBe(95);
	});

	it('sees three others per own call when the count falls by four, and keeps a fraction of what is left', () => {
		const estimate = openWindow();
		ownCalls(estimate, 100, 6, 4);
		expect(estimate.othersPerOwnCall).toBe(3);
		// Room for the others' calls in flight and as many again sent on the same stale figure.
		expect(estimate.share(76)).toBe(Math.floor(76 / 7));
	});

	it('overestimates the others only until an own call counted earlier but answered later comes back', () => {
		const estimate = openWindow();
		// Two own calls counted 1st and 2nd; the second answers first.
		estimate.observe(100, 98, TRIP_MS);
		expect(estimate.othersPerOwnCall).toBe(1);
		estimate.observe(100, 99, TRIP_MS);
		expect(estimate.othersPerOwnCall).toBe(0);
		expect(estimate.share(98)).toBe(98);
	});

	it('takes one of the last calls of a window, once, when nothing of its own is in flight and one is left for each client', () => {
		const estimate = openWindow();
		nearEndWithOneOther(estimate);
		expect(estimate.othersPerOwnCall).toBe(1);
		// Its share of 2 left rounds down to nothing; with a call of its own still out it waits for that answer.
		expect(estimate.share(2)).toBe(0);
		expect(estimate.share(2, true)).toBe(1);
		// One left for two clients: that one is the other's.
		expect(estimate.share(1, true)).toBe(0);
		estimate.reserved(2, true);
		expect(estimate.share(2, true)).toBe(0);
		nextWindow(estimate);
		nearEndWithOneOther(estimate);
		expect(estimate.share(2, true)).toBe(1);
	});

	it('counts the others as whole clients at the end of a window, so two clients at unequal paces still fill it', () => {
		const slower = openWindow();
		// 38 of 40 counted, 18 of them this process's: the other client sent 20, a little faster.
		slower.observe(40, 2, TRIP_MS);
		ownCalls(slower, 40, 17, 2);
		expect(slower.othersPerOwnCall).toBeCloseTo(20 / 18);
		// 2 left, one for each of the two clients: the last but one is this process's to take.
		expect(slower.share(2, true)).toBe(1);
		expect(slower.share(1, true)).toBe(0);
	});

	it('keeps its call at the end of the window when its first call went out before anything of the window was known', () => {
		const estimate = openWindow();
		// The first call of a budget goes out with no count known (0 announced).
		estimate.reserved(0, true);
		nearEndWithOneOther(estimate);
		expect(estimate.share(2, true)).toBe(1);
	});

	it('counts the others afresh in each window, so the whole window is the process\'s again when they stop', () => {
		const estimate = openWindow();
		ownCalls(estimate, 100, 4, 3);
		expect(estimate.share(88)).toBeLessThan(88);
		nextWindow(estimate);
		ownCalls(estimate, 100, 4, 1);
		expect(estimate.share(96)).toBe(96);
	});

	it('keeps one call in flight once no more is left than the others sent in the last window: their late calls may take it', () => {
		const estimate = openWindow();
		// Last window: 20 of 40 counted when its last answer came, 10 of them the others'.
		ownCalls(estimate, 40, 10, 2);
		nextWindow(estimate);
		// This window: 5 own calls so far, none of the others yet (they come late).
		ownCalls(estimate, 40, 5, 1);
		expect(estimate.share(35)).toBe(35);
		expect(estimate.share(10)).toBe(1);
	});

	it('keeps one call in flight beside other clients while all of them, one call at a time each, would still fill the window', () => {
		// 5 s windows; this process's trips take 20 ms: 250 calls a window one at a time, and as many for the other.
		const beside = openWindow(new OthersEstimate(5000));
		ownCalls(beside, 40, 2, 2, 20);
		expect(beside.share(36)).toBe(1);
		// Trips of 500 ms: 10 calls a window each, 20 for both, less than twice the 36 left; its part of them goes at once.
		const slow = openWindow(new OthersEstimate(5000));
		ownCalls(slow, 40, 2, 2, 500);
		expect(slow.share(36)).toBe(Math.floor(36 / 3));
		// Alone past the first window, it keeps all that is left in flight, however short its trips.
		const alone = openWindow(new OthersEstimate(5000));
		nextWindow(alone);
		ownCalls(alone, 40, 2, 1, 20);
		expect(alone.share(38)).toBe(38);
	});

	it('keeps one call in flight in the first window while that fills it, though no other client was seen: others may join unseen', () => {
		// 5 s windows, trips of 20 ms: one at a time, it alone would still send the 38 left many times over.
		const first = openWindow(new OthersEstimate(5000));
		ownCalls(first, 40, 2, 1, 20);
		expect(first.share(38)).toBe(1);
		// Trips of 500 ms: one at a time it would not fill the window, so it keeps what is left in flight.
		const slow = openWindow(new OthersEstimate(5000));
		ownCalls(slow, 40, 2, 1, 500);
		expect(slow.share(38)).toBe(38);
	});

	it('keeps one call in flight beside other clients once no answer has come for longer than its usual trip', () => {
		const estimate = openWindow();
		ownCalls(estimate, 100, 6, 4, 200);
		expect(estimate.share(76)).toBe(Math.floor(76 / 7));
		const now = Date.now();
		jest.spyOn(Date, 'now').mockReturnValue(now + 1000);
		try {
			// The others may have used up in that second what the last answer announced: one call asks again.
			expect(estimate.share(76, true)).toBe(1);
			estimate.answered();
			expect(estimate.share(76)).toBe(Math.floor(76 / 7));
		} finally {
			jest.restoreAllMocks();
		}
	});

	it('keeps one call in flight beside other clients after an answer held past twice its usual trip, until a call sent since answers', () => {
		const estimate = openWindow();
		nextWindow(estimate);
		ownCalls(estimate, 100, 6, 4, 200);
		const now = Date.now();
		try {
			// Held 1 s behind a stall: what it announces may be long used up by the others.
			estimate.observe(100, 70, 1000);
			estimate.answered();
			expect(estimate.share(70)).toBe(1);
			// The answer of a call sent before that one came is as old: still one at a time.
			jest.spyOn(Date, 'now').mockReturnValue(now + 100);
			estimate.observe(100, 68, 200);
			estimate.answered();
			expect(estimate.share(68)).toBe(1);
			// A call sent after it answers in its usual trip: its part of what is left goes at once again.
			jest.spyOn(Date, 'now').mockReturnValue(now + 400);
			estimate.observe(100, 66, 200);
			estimate.answered();
			expect(estimate.share(66)).toBeGreaterThan(1);
		} finally {
			jest.restoreAllMocks();
		}
	});

	it('opens a window gradually: one more call in flight per answer', () => {
		const estimate = new OthersEstimate();
		expect(estimate.share(100)).toBe(1);
		estimate.answered();
		expect(estimate.share(100)).toBe(2);
		estimate.answered();
		estimate.answered();
		expect(estimate.share(100)).toBe(4);
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
	const budgets = Array.from({ length: clients }, () => newBudget());
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
				release(budget,
					{
						'x-ratelimit-limit': String(limit),
						'x-ratelimit-remaining': String(answer.remaining),
						'x-ratelimit-reset': String(resetAt),
					},
					answer.status,
					answer.reservation,
				);
				pending[index] = undefined;
			}
			if (waiting[index]) continue;
			// A budget that holds the call waits for the window's end: that client is done with this window.
			const abort = new AbortController();
			let reservation: Reservation | undefined;
			const acquired = budget.acquire({ signal: abort.signal }).then(
				(reserved) => (reservation = reserved),
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

	it('a worker alone fills every window: the spike takes no more windows than its calls need', async () => {
		const { result } = await onControlledClock(async () => await spikeAcrossWorkers({ workers: 1, executions: 80 }));
		expect(result.callsPerWindow).toEqual([40, 40, 40, 40]);
	}, 30_000);

	it.each([2, 4])(
		'%i workers leave less than half a call per other worker unused in a window, on average, while executions are still waiting to start',
		async (workers) => {
			const { result } = await onControlledClock(async () => await spikeAcrossWorkers({ workers, executions: 200 }));
			const busy = result.callsPerWindow.slice(0, result.lastStartedIn);
			expect(busy.length).toBeGreaterThanOrEqual(8);
			const unusedPerWindow = busy.reduce((sum, calls) => sum + 40 - calls, 0) / busy.length;
			expect(unusedPerWindow).toBeLessThan((workers - 1) / 2);
		},
		30_000,
	);
});
