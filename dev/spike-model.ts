/**
 * The shape of a lead-capture spike in queue mode, for the rate budget alone: several workers, each with its
 * own budget (the credential's processes setting at the number of workers) and ten executions of two writes each, against one counter whose fixed window opens at the first
 * call after the last one closed (as the service's). Each call reaches the service and its answer comes back
 * after a seeded trip; a refused call waits as told and is sent again.
 *
 * Run it on the controlled clock (`onControlledClock`): the fair-share tests check it, and `npm run bench:model`
 * reports it over many seeds, trip lengths and workers at unequal paces.
 */
import { Deadline } from '../nodes/Prospecting/transport/deadline';
import { RateBudget, RateWaitTooLong } from '../nodes/Prospecting/transport/rateBudget';
import { readRateAnswer, type RateSettings } from '../nodes/Prospecting/transport/rateRules';

export interface SpikeModelOptions {
	workers: number;
	executions: number;
	/** The service's window; 1 s by default. */
	windowMs?: number;
	/** Calls per window; 40 by default. */
	limit?: number;
	/** Executions each worker runs at once (n8n's worker concurrency); 10 by default. */
	concurrency?: number;
	/** Shortest and longest trip each way in ms, whole numbers drawn evenly; 1-6 by default. */
	tripMs?: [number, number];
	/** Worker i's trips are (1 + slowerBy × i) times as long: workers at unequal paces; 0 by default. */
	slowerBy?: number;
	/**
	 * X-RateLimit-Reset as epoch ms (the window's exact end), or as epoch seconds rounded up, as the sandbox sends it
	 * by default: then a worker that opens no window learns its end up to a second late. 'ms' by default.
	 */
	resetIn?: 'ms' | 's';
	/**
	 * Each worker stalls (its event loop busy, as on a loaded machine) for `forMs` in every `everyMs`, the workers'
	 * stalls spread evenly: answers that come during one wait for its end. None by default.
	 */
	stall?: { everyMs: number; forMs: number };
	/**
	 * The first worker is alone this long before the others start (n8n still taking the spike in): all it has seen by
	 * then is itself. 0 by default.
	 */
	firstAloneMs?: number;
	/** Seed of the trips; the number of workers by default. */
	seed?: number;
	/** Whether the credential states how many workers share the key (n8n Processes Sharing This Key); true by default. */
	processesStated?: boolean;
	/**
	 * Each call's Max Rate Limit Wait in a workflow: a call that a 429's hold would keep longer fails, and its execution
	 * with it (its lead not created, or not added to the routine). None by default: every call waits as long as it takes.
	 */
	maxWaitMs?: number;
}

export interface SpikeModelResult {
	/** Calls counted in each window. */
	callsPerWindow: number[];
	/** The window in which the last execution started: until then every worker had calls waiting. */
	lastStartedIn: number;
	/** 429s in all. */
	refused: number;
	/** The most 429s any one worker drew in one window. */
	mostRefusedInOneWindow: number;
	/**
	 * The latest a worker's first call of a window reached the service after the window began, over the windows while
	 * executions were still waiting to start, leaving out a worker held by a 429 of the window before.
	 */
	latestFirstCallMs: number;
	/** 429s per window, and the longest hold a refusal put on a budget against the longest Retry-After the service sent. */
	refusedPerWindow: number[];
	longestHoldMs: number;
	longestAskedMs: number;
	/** Executions that failed: a call of theirs was held past its Max Rate Limit Wait. */
	failedExecutions: number;
}

/** A small deterministic generator of whole numbers from `min` to `max`, so a run's trips are the same every time. */
function trips(seed: number, [min, max]: [number, number]): () => number {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
		return min + (state % (max - min + 1));
	};
}

/** A worker's entry in one window. */
const key = (worker: number, window: number) => `${worker}@${window}`;

export async function spikeAcrossWorkers(options: SpikeModelOptions): Promise<SpikeModelResult> {
	const { workers, executions, windowMs = 1000, limit = 40, concurrency = 10, slowerBy = 0 } = options;
	const nextTrip = trips(options.seed ?? workers, options.tripMs ?? [1, 6]);
	const trip = async (worker: number) =>
		await new Promise((resolve) => setTimeout(resolve, nextTrip() * (1 + slowerBy * worker)));
	let window = { start: -Infinity, count: 0, index: -1 };
	const callsPerWindow: number[] = [];
	let lastStartedIn = -1;
	let refused = 0;
	const refusedPerWorkerWindow = new Map<string, number>();
	const refusedPerWindow: number[] = [];
	let [longestHoldMs, longestAskedMs, failedExecutions] = [0, 0, 0];
	const firstCallMs = new Map<string, number>();
	let left = executions;
	const serve = (worker: number) => {
		const now = Date.now();
		if (now >= window.start + windowMs) window = { start: now, count: 0, index: window.index + 1 };
		if (!firstCallMs.has(key(worker, window.index))) firstCallMs.set(key(worker, window.index), now - window.start);
		const allowed = window.count < limit;
		if (allowed) {
			window.count += 1;
			callsPerWindow[window.index] = window.count;
		} else {
			refused += 1;
			refusedPerWindow[window.index] = (refusedPerWindow[window.index] ?? 0) + 1;
			const refusal = key(worker, window.index);
			refusedPerWorkerWindow.set(refusal, (refusedPerWorkerWindow.get(refusal) ?? 0) + 1);
		}
		const end = window.start + windowMs;
		const headers: Record<string, string> = {
			'x-ratelimit-limit': String(limit),
			'x-ratelimit-remaining': String(limit - window.count),
			'x-ratelimit-reset': options.resetIn === 's' ? String(Math.ceil(end / 1000)) : String(end),
		};
		if (!allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((end - now) / 1000)));
		return { status: allowed ? 200 : 429, headers };
	};
	const startedAt = Date.now();
	const stallEnd = async (worker: number) => {
		if (!options.stall) return;
		const { everyMs, forMs } = options.stall;
		// From the spike's start, so a run does not depend on the time of day it began.
		const phase = (Date.now() - startedAt + (worker * everyMs) / workers) % everyMs;
		if (phase < forMs) await new Promise((resolve) => setTimeout(resolve, forMs - phase));
	};
	const worker = async (index: number) => {
		if (index > 0 && options.firstAloneMs) await new Promise((resolve) => setTimeout(resolve, options.firstAloneMs));
		const settings: RateSettings = { limit, windowMs, processes: options.processesStated === false ? 1 : workers, resetUnit: 'auto' };
		const budget = new RateBudget();
		const call = async () => {
			// A workflow's call: its turn is never bounded, its holds by its Max Rate Limit Wait.
			const deadline = new Deadline(options.maxWaitMs ?? Infinity);
			for (let place = budget.enter(); ; ) {
				const reservation = await budget.acquire(settings, deadline, undefined, place);
				place = reservation.place;
				await trip(index);
				const { status, headers } = serve(index);
				await trip(index);
				await stallEnd(index);
				const now = Date.now();
				budget.settle(reservation, readRateAnswer(headers, status, now, settings), settings, now);
				if (status === 200) break;
				longestHoldMs = Math.max(longestHoldMs, budget.figures().hold.until - now);
				longestAskedMs = Math.max(longestAskedMs, Number(headers['retry-after']) * 1000);
			}
		};
		const slot = async () => {
			while (left > 0) {
				left -= 1;
				if (left === 0) lastStartedIn = window.index;
				try {
					await call(); // Lead Create
					await call(); // Routine Add Lead
				} catch (error) {
					if (!(error instanceof RateWaitTooLong)) throw error;
					failedExecutions += 1;
				}
			}
		};
		await Promise.all(Array.from({ length: concurrency }, slot));
	};
	await Promise.all(Array.from({ length: workers }, async (_, index) => await worker(index)));
	let latestFirstCallMs = 0;
	for (let index = 1; index <= lastStartedIn; index++) {
		for (let worker = 0; worker < workers; worker++) {
			if (refusedPerWorkerWindow.has(key(worker, index - 1))) continue;
			latestFirstCallMs = Math.max(latestFirstCallMs, firstCallMs.get(key(worker, index)) ?? windowMs);
		}
	}
	return {
		callsPerWindow,
		lastStartedIn,
		refused,
		mostRefusedInOneWindow: Math.max(0, ...refusedPerWorkerWindow.values()),
		latestFirstCallMs,
		refusedPerWindow: Array.from(callsPerWindow, (_, index) => refusedPerWindow[index] ?? 0),
		longestHoldMs,
		longestAskedMs,
		failedExecutions,
	};
}
