/**
 * `npm run bench:model`: the spike model (dev/spike-model.ts) over many seeds, in seconds instead of a real spike's
 * twenty minutes: N workers × 10 executions of two writes, a 5 s window of 40, trips as n8n's workers showed them
 * (50-300 ms each way), shorter ones, workers at unequal paces, the reset in whole seconds (the sandbox's default),
 * and a first worker alone for 750 ms before the others start (n8n still taking the spike in). Per case: calls left
 * unused in every window but the last, 429s, the most 429s one worker drew in one window, and time ÷ the write floor
 * on the model's clock. Writes bench/results/results.model.json; prints the table.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { onControlledClock } from '../../dev/harness/clock';
import { spikeAcrossWorkers, type SpikeModelOptions } from '../../dev/spike-model';
import { rateLimitFloor } from '../lib/floor';
import { round } from '../lib/measure';

const LIMIT = 40;
const WINDOW_MS = 5000;
const SEEDS = Number(process.env.MODEL_SEEDS ?? 10);

interface Trips {
	name: string;
	tripMs: [number, number];
	slowerBy: number;
	resetIn?: 'ms' | 's';
	firstAloneMs?: number;
}

const TRIPS: Trips[] = [
	{ name: '50-300 ms, equal paces', tripMs: [50, 300], slowerBy: 0 },
	{ name: '50-300 ms, worker i × (1 + 0.5 i)', tripMs: [50, 300], slowerBy: 0.5 },
	{ name: '5-30 ms, equal paces', tripMs: [5, 30], slowerBy: 0 },
	{ name: '50-300 ms, equal paces, reset in whole seconds', tripMs: [50, 300], slowerBy: 0, resetIn: 's' },
	{ name: '50-300 ms, equal paces, the first worker alone for 750 ms', tripMs: [50, 300], slowerBy: 0, firstAloneMs: 750 },
	{ name: '20-100 ms, equal paces, the first worker alone for 750 ms', tripMs: [20, 100], slowerBy: 0, firstAloneMs: 750 },
];

const CASES: Array<[workers: number, executions: number]> = [
	[1, 200],
	[2, 200],
	[4, 200],
	[2, 1000],
	[4, 1000],
	[8, 1000],
];

async function measure(trips: Trips, workers: number, executions: number) {
	let unused = 0;
	let refused = 0;
	let mostInOneWindow = 0;
	let ratio = 0;
	let worstRatio = 0;
	// The model's calls take no time of their own at the service: the floor is the windows that must pass.
	const { floorMs } = rateLimitFloor({ requests: 2 * executions, limit: LIMIT, windowMs: WINDOW_MS, perRequestMs: 0 });
	for (let seed = 1; seed <= SEEDS; seed++) {
		const options: SpikeModelOptions = { workers, executions, windowMs: WINDOW_MS, limit: LIMIT, ...trips, seed: seed * 7919 + workers };
		const { result, elapsedMs } = await onControlledClock(async () => await spikeAcrossWorkers(options));
		unused += result.callsPerWindow.slice(0, -1).reduce((sum, calls) => sum + LIMIT - calls, 0);
		refused += result.refused;
		mostInOneWindow = Math.max(mostInOneWindow, result.mostRefusedInOneWindow);
		ratio += elapsedMs / floorMs;
		worstRatio = Math.max(worstRatio, elapsedMs / floorMs);
	}
	return {
		trips: trips.name,
		workers,
		executions,
		unusedPerRun: round(unused / SEEDS, 1),
		refusedPerRun: round(refused / SEEDS, 1),
		mostInOneWindow,
		ratioToFloor: round(ratio / SEEDS, 3),
		worstRatioToFloor: round(worstRatio, 3),
	};
}

it('reports the spike model', async () => {
	const rows = [];
	for (const trips of TRIPS) for (const [workers, executions] of CASES) rows.push(await measure(trips, workers, executions));
	const table = [
		'| Trips | Workers × executions | Unused calls per run | 429s per run | Most 429s to one worker in a window | Time ÷ floor (mean / worst) |',
		'|---|---|---|---|---|---|',
		...rows.map(
			(row) =>
				`| ${row.trips} | ${row.workers} × ${row.executions} | ${row.unusedPerRun} | ${row.refusedPerRun} | ${row.mostInOneWindow} | ${row.ratioToFloor.toFixed(3)} / ${row.worstRatioToFloor.toFixed(3)} |`,
		),
	].join('\n');
	process.stdout.write(`\nSpike model, ${SEEDS} seeds per case, ${WINDOW_MS / 1000} s windows of ${LIMIT}:\n${table}\n`);
	const file = path.join(__dirname, '..', 'results', 'results.model.json');
	mkdirSync(path.dirname(file), { recursive: true });
	const config = { seeds: SEEDS, windowMs: WINDOW_MS, limit: LIMIT, concurrency: 10, callsPerExecution: 2 };
	writeFileSync(file, `${JSON.stringify({ measuredAt: new Date().toISOString(), config, rows }, null, '\t')}\n`);
});
