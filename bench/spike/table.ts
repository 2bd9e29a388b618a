/**
 * `ts-node --transpile-only bench/spike/table.ts <results file>`: a spike case's results (bench/results/results.spike.<case>.json) as the Markdown rows
 * BENCHMARKS.md shows.
 */
import { readFileSync } from 'node:fs';

import { benchResultsFile } from '../lib/figure-paths';

interface Case {
	deployment: string;
	kind: string;
	posts: number;
	people: number;
	postsRefused: number;
	completed: boolean;
	wallMs: number;
	floor: { floorMs: number };
	ratioToFloor: number;
	/** Results from before it was recorded compute it against the floor from the first post. */
	callsRatioToFloor?: number | null;
	leads: { createdOnce: number; createdTwiceOrMore: number; missing: number; inRoutine: number };
	routineAdds: number;
	executions: { succeeded: number; failed: number };
	postsAnsweredMs: number;
	/** Absent in runs before it was measured. */
	n8nIntakeMs?: number | null;
	requests: { tooMany: number; firstAt: number | null; lastAt: number | null };
	writes: { max429PerWindow: number; windows: unknown[] };
	reads: { max429PerWindow: number };
	/** Queue mode, in runs with one proxy per worker. */
	workerRefusals?: { perWorker: number[]; mostInOneWindow: number };
	memory: { peakMbByRole: Record<string, number> };
	loadBefore: number;
	loadAfter: number;
	met: boolean;
}

const file = process.argv[2] ?? benchResultsFile('spike.single-200');
const result = JSON.parse(readFileSync(file, 'utf8')) as { startedAt: string; head: string; writeRequestMs: number; cases: Case[] };
const memory = (peaks: Record<string, number>) =>
	Object.entries(peaks)
		.map(([role, mb]) => `${role.replace('worker-', 'w')} ${Math.round(mb)}`)
		.join(', ');

process.stdout.write(`Run ${result.startedAt} (HEAD ${result.head}), write request ${result.writeRequestMs} ms\n\n`);
process.stdout.write(
	'| Deployment | Case | Leads once / twice+ / never (people) | In routine; routine adds | Failed executions; posts refused | 429s (most in a write / read window; most to one worker in a window) | Time = × write floor | Posts answered in; n8n intake; calls ÷ floor | Peak RSS, MB | Load | Target met |\n',
);
process.stdout.write('|---|---|---|---|---|---|---|---|---|---|---|\n');
for (const c of result.cases) {
	const what = c.kind === 'double-submit' ? `double submit: ${c.people} people × 2` : `${c.posts} posts`;
	// From the service's first call to its last answer: the node's pacing without n8n's intake of the posts.
	const callsRatio =
		c.callsRatioToFloor ??
		(c.requests.firstAt !== null && c.requests.lastAt !== null ? (c.requests.lastAt - c.requests.firstAt) / c.floor.floorMs : NaN);
	// From the first post to the first execution's start (n8n's record): time before the node runs at all.
	const intake = typeof c.n8nIntakeMs === 'number' ? `${(c.n8nIntakeMs / 1000).toFixed(1)} s` : '–';
	const perWorker = c.workerRefusals ? `; ${c.workerRefusals.mostInOneWindow}` : '';
	// A double submit is judged by its leads alone: one per person.
	const met = c.kind === 'double-submit' ? c.leads.createdOnce === c.people && c.executions.failed === 0 && c.postsRefused === 0 : c.met;
	const unfinished = c.completed ? '' : ` (${c.posts - c.postsRefused - c.executions.succeeded - c.executions.failed} unfinished)`;
	process.stdout.write(
		`| ${c.deployment} | ${what} | ${c.leads.createdOnce} / ${c.leads.createdTwiceOrMore} / ${c.leads.missing} (${c.people}) | ${c.leads.inRoutine}; ${c.routineAdds} | ` +
			`${c.executions.failed}; ${c.postsRefused}${unfinished} | ${c.requests.tooMany} (${c.writes.max429PerWindow} / ${c.reads.max429PerWindow}${perWorker}) | ` +
			`${(c.wallMs / 1000).toFixed(1)} s = **${c.ratioToFloor.toFixed(3)} ×** (${(c.floor.floorMs / 1000).toFixed(1)} s) | ${(c.postsAnsweredMs / 1000).toFixed(1)} s; ${intake}; ${callsRatio.toFixed(3)} × | ${memory(c.memory.peakMbByRole)} | ` +
			`${c.loadBefore}→${c.loadAfter} | ${met ? 'yes' : '**no**'} |\n`,
	);
}
