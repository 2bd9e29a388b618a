/**
 * `npm run bench:queue [-- --quick] [-- --workers=1,2,4] [-- --reset=epoch-seconds,epoch-ms]`
 *
 * One key, several n8n workers at once (queue mode, scripts/lib/queue-deployment.ts): 1, 2 and 4 executions started
 * together, each on its own worker (worker concurrency 1), each walking every lead (Return All) or creating its own
 * batch of leads, against the sandbox in its own process with a shortened window. Every worker keeps its own rate
 * budget (per process), fed by the X-RateLimit-* headers the service sends to all of them.
 *
 * Per figure: wall time from the first call to the last answer against the floor of all executions' calls together
 * (bench/lib/floor.ts, per-request time from a bare fetch loop in the same run), 429s per window (the windows are
 * rebuilt from the sandbox's request log: a window opens at the first call after the previous one closed), records
 * per execution (duplicates, gaps) or leads per input item (once, twice or more, never), and which workers ran it.
 * Writes bench/results/results.queue-mode.json (a quick run: bench/tmp/results.queue-mode.quick.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { bootstrapN8n, type N8nInstance } from '../../scripts/lib/bootstrap';
import { ensureCredential } from '../../scripts/lib/instance-setup';
import { freePort } from '../../scripts/lib/ports';
import { ensureN8nRuntime, repoRoot } from '../../scripts/lib/provision';
import type { RunningQueueDeployment } from '../../scripts/lib/queue-deployment';
import { FULL, QUICK, type BenchConfig } from '../lib/config';
import { rateLimitFloor, type Floor } from '../lib/floor';
import { postJson } from '../lib/http-post';
import { round } from '../lib/measure';
import { benchResultsFile } from '../lib/figure-paths';
import { checkCreates, checkRecords, type CreateCheck, type RecordCheck } from '../lib/records';
import { SandboxProcess, type RequestSummary } from '../../dev/sandbox-client';
import { stopTogether } from '../lib/stop-together';
import { bulkInputItems } from '../scenarios/bulk-create';
import { measureReadRequestTime, measureWriteRequestTime } from '../scenarios/request-time';
import { bulkCreateWorkflow, walkWorkflow } from './workflows';

type ResetFormat = 'epoch-seconds' | 'epoch-ms';
type Work = 'walk' | 'bulk';

const log = (text: string) => process.stderr.write(`[bench queue ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

interface Args {
	quick: boolean;
	workers: number[];
	resetFormats: ResetFormat[];
}

function parseArgs(argv: string[]): Args {
	const args: Args = { quick: false, workers: [1, 2, 4], resetFormats: ['epoch-seconds', 'epoch-ms'] };
	for (const arg of argv) {
		if (arg === '--quick') args.quick = true;
		else if (arg.startsWith('--workers=')) args.workers = arg.slice(10).split(',').map(Number);
		else if (arg.startsWith('--reset=')) args.resetFormats = arg.slice(8).split(',') as ResetFormat[];
		else throw new Error(`unknown option ${arg} (known: --quick, --workers=1,2,4, --reset=epoch-seconds,epoch-ms)`);
	}
	if (args.workers.some((n) => !Number.isInteger(n) || n < 1 || n > 8)) throw new Error('--workers takes 1 to 8 per figure');
	if (args.resetFormats.some((f) => f !== 'epoch-seconds' && f !== 'epoch-ms')) throw new Error('--reset takes epoch-seconds and/or epoch-ms');
	return args;
}

/** The in-process benchmark's sizes at half the walk and half the bulk create: n × that many calls per figure. */
function queueConfig(quick: boolean): BenchConfig {
	const base = quick ? QUICK : FULL;
	return { ...base, walkLeads: base.walkLeads / 2, bulkItems: base.bulkItems / 2 };
}

const smallDataset = (leads: number) => ({ leads, routines: 5, prospections: 20, activitiesPerProspection: 2, customFields: 3, threads: 5 });

export interface WindowCount {
	startMs: number;
	calls: number;
	tooMany: number;
}

export interface QueueFigure {
	work: Work;
	workers: number;
	resetFormat: ResetFormat;
	wallMs: number;
	floor: Floor;
	ratioToFloor: number;
	requests: RequestSummary;
	/** The windows of the figure's kind of call, rebuilt from the sandbox's log. */
	windows: WindowCount[];
	max429PerWindow: number;
	/** Target: ≤ 1.10 × floor and at most one 429 per worker per window; nothing lost or duplicated. */
	met: boolean;
	executions: Array<{ status: number; wallMs: number; records?: RecordCheck; leads?: CreateCheck; error?: string }>;
	/** Distinct workers whose log shows one of the figure's executions starting. */
	workersUsed: number;
	loadBefore: number;
	loadAfter: number;
}

/**
 * The window of each call (0, 1, ...) as the sandbox counts them: fixed, each opened by the first call after the
 * previous one closed, or with `clockWindows` aligned to the clock (0 is the first call's).
 */
export function windowIndexes(calls: Array<{ at: number }>, windowMs: number, clockWindows = false): number[] {
	if (clockWindows) {
		const first = Math.floor((calls[0]?.at ?? 0) / windowMs);
		return calls.map((call) => Math.floor(call.at / windowMs) - first);
	}
	let index = -1;
	let opened = -Infinity;
	return calls.map((call) => {
		if (call.at >= opened + windowMs) {
			index += 1;
			opened = call.at;
		}
		return index;
	});
}

/** Windows as the sandbox counts them, with their calls and refusals. */
export function rebuildWindows(calls: Array<{ at: number; status: number }>, windowMs: number, clockWindows = false): WindowCount[] {
	const windows: WindowCount[] = [];
	const first = calls[0]?.at ?? 0;
	windowIndexes(calls, windowMs, clockWindows).forEach((index, i) => {
		const call = calls[i];
		// A clock window opens on the clock, before its first call (the first one before the spike's first call).
		const opened = clockWindows ? call.at - (call.at % windowMs) : call.at;
		const window = (windows[index] ??= { startMs: opened - first, calls: 0, tooMany: 0 });
		window.calls++;
		if (call.status === 429) window.tooMany++;
	});
	return windows;
}

interface Context {
	config: BenchConfig;
	deployment: RunningQueueDeployment;
	sandbox: SandboxProcess;
	paths: { walk: string; bulk: string };
	perRequestMs: { read: number; write: number };
	expectedIds: string[];
	resetFormat: ResetFormat;
}

function workerStartCounts(deployment: RunningQueueDeployment): number[] {
	return deployment.workers.map((worker) => (worker.output().match(/Worker started execution/g) ?? []).length);
}

async function runFigure(ctx: Context, work: Work, workers: number): Promise<QueueFigure> {
	const { config, sandbox, deployment } = ctx;
	await sandbox.reset();
	await sandbox.setRateLimit({ enabled: true, windowSeconds: config.windowSeconds, readLimit: config.readLimit, writeLimit: config.writeLimit });
	// The workers' budgets remember the previous figure's window; let it end on their clocks too.
	await sleep(config.windowSeconds * 1000 + 1500);
	const loadBefore = os.loadavg()[0];
	const from = await sandbox.requestCount();
	const startsBefore = workerStartCounts(deployment);
	const tags = Array.from({ length: workers }, (_, i) => `QB${workers}-${i}`);
	const url = `${deployment.webhookUrl}/webhook/${ctx.paths[work]}`;
	const start = performance.now();
	const answers = await Promise.all(
		tags.map(async (tag) => await postJson(url, work === 'walk' ? {} : { items: bulkInputItems(tag, config.bulkItems) })),
	);
	const wallMs = performance.now() - start;
	const loadAfter = os.loadavg()[0];
	const requests = await sandbox.requestSummary(from);
	const kind = work === 'walk' ? 'read' : 'write';
	const calls = (await sandbox.call<Array<{ at: string; status: number; kind: string }>>('requests'))
		.slice(from)
		.filter((r) => r.kind === kind)
		.map((r) => ({ at: Date.parse(r.at), status: r.status }));
	const windows = rebuildWindows(calls, config.windowSeconds * 1000);
	const nameCounts = work === 'bulk' ? await sandbox.call<Record<string, number>>('leadNameCounts', `QB${workers}-`) : {};
	const executions: QueueFigure['executions'] = answers.map((answer, i) => {
		let ids: string[] = [];
		let error: string | undefined;
		try {
			const body = JSON.parse(answer.body) as { id?: string[] };
			ids = Array.isArray(body.id) ? body.id : [];
			if (answer.status !== 200) error = answer.body.slice(0, 300);
		} catch {
			error = answer.body.slice(0, 300);
		}
		return {
			status: answer.status,
			wallMs: round(answer.wallMs, 1),
			...(work === 'walk' ? { records: checkRecords(ids, ctx.expectedIds) } : { leads: checkCreates(nameCounts, tags[i], config.bulkItems) }),
			...(error ? { error } : {}),
		};
	});
	const startsAfter = workerStartCounts(deployment);
	const workersUsed = startsAfter.filter((count, i) => count > startsBefore[i]).length;
	const perExecution = work === 'walk' ? Math.ceil(ctx.expectedIds.length / config.pageSize) : config.bulkItems;
	const floor = rateLimitFloor({
		requests: workers * perExecution,
		limit: work === 'walk' ? config.readLimit : config.writeLimit,
		windowMs: config.windowSeconds * 1000,
		perRequestMs: work === 'walk' ? ctx.perRequestMs.read : ctx.perRequestMs.write,
	});
	const ratioToFloor = round(wallMs / floor.floorMs, 3);
	const max429PerWindow = Math.max(0, ...windows.map((w) => w.tooMany));
	const intact = executions.every((e) =>
		e.records
			? e.status === 200 && e.records.duplicates === 0 && e.records.gaps === 0 && e.records.unknown === 0
			: e.status === 200 && e.leads!.itemsCreatedOnce === config.bulkItems,
	);
	return {
		work,
		workers,
		resetFormat: ctx.resetFormat,
		wallMs: round(wallMs, 1),
		floor,
		ratioToFloor,
		requests,
		windows,
		max429PerWindow,
		met: intact && ratioToFloor <= 1.1 && max429PerWindow <= workers,
		executions,
		workersUsed,
		loadBefore: round(loadBefore, 2),
		loadAfter: round(loadAfter, 2),
	};
}

export function describeFigure(f: QueueFigure): string {
	const what = f.work === 'walk' ? 'walk' : 'bulk create';
	const outcome = f.executions
		.map((e) =>
			e.records
				? `${e.records.unique}/${e.records.returned} (${e.records.duplicates} dup, ${e.records.gaps} gaps)`
				: `${e.leads!.itemsCreatedOnce} once, ${e.leads!.itemsCreatedTwiceOrMore} twice+, ${e.leads!.itemsMissing} never`,
		)
		.join('; ');
	return (
		`${what}, ${f.workers} worker(s) [${f.workersUsed} used], reset ${f.resetFormat}: ${(f.wallMs / 1000).toFixed(2)} s = ${f.ratioToFloor} × floor ` +
		`${(f.floor.floorMs / 1000).toFixed(2)} s; ${f.requests.tooMany} × 429 (max ${f.max429PerWindow} per window, ${f.windows.length} windows); ${outcome}; ` +
		`load ${f.loadBefore}→${f.loadAfter}; ${f.met ? 'met' : 'NOT met'}`
	);
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const config = queueConfig(args.quick);
	const started = new Date();
	const runDir = path.join((await ensureN8nRuntime()).cacheRoot, 'bench-queue');
	const sandboxPort = await freePort();
	const maxWorkers = Math.max(...args.workers);
	let n8n: N8nInstance | undefined;
	let sandbox: SandboxProcess | undefined;
	const { stopAll, removeInterruptHandlers } = stopTogether(() => ({ n8n, sandbox }));

	const figures: QueueFigure[] = [];
	const perRequest: Record<string, { readMs: number; writeMs: number }> = {};
	let startSeconds = NaN;
	let n8nVersion = '';
	try {
		n8n = await bootstrapN8n({
			runDir,
			build: true,
			queue: { workers: maxWorkers, workerConcurrency: 1 },
			logLevel: 'info', // "Worker started execution" lines tell which worker ran what
			say: log,
		});
		const { client } = n8n;
		const deployment = n8n.queue!;
		({ startSeconds } = n8n);
		n8nVersion = n8n.runtime.n8nVersion;
		log(`queue deployment ready in ${startSeconds} s: main, webhook processor, ${maxWorkers} workers`);
		let credential: { id: string; name: string } | undefined;
		const paths = { walk: 'queue-bench-walk', bulk: 'queue-bench-bulk' };

		for (const resetFormat of args.resetFormats) {
			sandbox = await SandboxProcess.start({
				port: sandboxPort,
				windowSeconds: config.windowSeconds,
				readLimit: config.readLimit,
				writeLimit: config.writeLimit,
				rateLimitResetFormat: resetFormat,
				dataset: smallDataset(config.walkLeads),
			});
			if (!credential) {
				credential = await ensureCredential(client, {
					baseUrl: sandbox.url,
					apiKey: sandbox.apiKey,
					rateLimitWindowSeconds: config.windowSeconds,
				});
				for (const workflow of [walkWorkflow(paths.walk, credential, config.pageSize), bulkCreateWorkflow(paths.bulk, credential)]) {
					const stored = await client.createWorkflow(workflow);
					await client.activateWorkflow(stored.id, stored.versionId);
				}
			}
			log(`reset ${resetFormat}: per-request times (bare fetch loops, limiter off)`);
			const reads = await measureReadRequestTime(sandbox, config);
			const writes = await measureWriteRequestTime(sandbox, config);
			perRequest[resetFormat] = { readMs: round(reads.perRequestMs, 3), writeMs: round(writes.perRequestMs, 3) };
			await sandbox.reset();
			const expectedIds = await sandbox.call<string[]>('leadIds');
			const ctx: Context = {
				config,
				deployment,
				sandbox,
				paths,
				perRequestMs: { read: reads.perRequestMs, write: writes.perRequestMs },
				expectedIds,
				resetFormat,
			};
			for (const work of ['walk', 'bulk'] as const) {
				for (const workers of args.workers) {
					const figure = await runFigure(ctx, work, workers);
					figures.push(figure);
					log(describeFigure(figure));
				}
			}
			await sandbox.stop();
			sandbox = undefined;
		}
	} finally {
		await stopAll();
		removeInterruptHandlers();
	}

	const result = {
		startedAt: started.toISOString(),
		mode: args.quick ? 'quick' : 'full',
		machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memGb: round(os.totalmem() / 2 ** 30, 1), node: process.version },
		n8nVersion,
		deployment: { workers: Math.max(...args.workers), workerConcurrency: 1, startSeconds },
		config: {
			windowSeconds: config.windowSeconds,
			readLimit: config.readLimit,
			writeLimit: config.writeLimit,
			leads: config.walkLeads,
			pageSize: config.pageSize,
			bulkItemsPerExecution: config.bulkItems,
		},
		perRequest,
		figures,
	};
	const out = benchResultsFile(`queue-mode${args.quick ? '.quick' : ''}`, { kept: !args.quick });
	mkdirSync(path.dirname(out), { recursive: true });
	writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
	log(`wrote ${path.relative(repoRoot, out)}`);
	for (const figure of figures) process.stdout.write(`${describeFigure(figure)}\n`);
}

if (require.main === module) {
	main().catch((error) => {
		log(`failed: ${(error as Error).stack ?? error}`);
		process.exit(1);
	});
}
