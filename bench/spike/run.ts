/**
 * `npm run bench:spike [-- --posts=200,1000] [-- --deployments=single,queue-2,queue-4] [-- --double=100] [-- --out=file]`
 *   `[-- --rate-headers=on-429] [-- --clock-windows] [-- --real-window] [-- --other-client=10] [-- --processes-unstated]`
 *   `[-- --concurrency-limit=N] [-- --node-options=--max-old-space-size=768] [-- --wait-load=3]`
 *
 * A lead-capture spike in real n8n: N form posts at once into n8n's Webhook node, each running the package's
 * lead-capture example (Lead Create with Skip If Exists → Routine Add Lead), against the sandbox in its own process
 * at 40 reads and 40 writes per 5 s window (the real 200 / 100 per 60 s, shortened). Deployments: one process
 * (SQLite, as the demo) and queue mode with 2 and 4 workers at concurrency 10, each started through the bootstrap
 * (scripts/lib/bootstrap.ts). The credential states the sandbox's limits and window, and in queue mode how many workers
 * share the key (`--processes-unstated` leaves it at 1). `--clock-windows` aligns the service's windows to the clock, so
 * a spike begins part-way through one; `--real-window` uses the documented 200 reads / 100 writes per 60 s;
 * `--other-client=P` has another client spend P % of the key's writes in every window during the spike (its own leads,
 * spread over the window, a refused one not sent again); `--concurrency-limit=N` sets n8n's N8N_CONCURRENCY_PRODUCTION_LIMIT in the one-process deployment,
 * `--node-options=...` the NODE_OPTIONS of n8n's processes (a heap limit such as --max-old-space-size=768);
 * `--wait-load=L` waits before each case until the machine's 1-minute load average is below L (at most 40 minutes):
 * on a machine shared with other work a loaded one starves n8n itself (its webhook processor then answers posts
 * with 500 when its database pool times out), which is not what a case measures.
 * In one process also a double submit: each of K
 * people posted twice within a second, all at once (a double click during a spike: the writes queue behind the
 * budget, so the two searches can both run first).
 *
 * Per case: leads per person (once, twice or more, never: the sandbox's store), routine adds (the sandbox's log),
 * failed executions (n8n's executions API), 429s per window (windows rebuilt from the sandbox's log) and in queue
 * mode per worker (each worker sends through its own proxy, bench/lib/worker-proxies.ts), n8n's intake (first post to
 * the first execution's start), time from the first post to the service's last answer ÷ the write floor
 * (bench/lib/floor.ts), peak RSS of every n8n process.
 * Writes bench/results/results.<case>.json (bench/spike/case-name.ts: e.g. results.spike.queue-4-1000.json) after every
 * case, so a stopped run keeps what it measured and a run of the same case overwrites its file; --out=file elsewhere.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { bootstrapN8n, type N8nInstance } from '../../scripts/lib/bootstrap';
import { ensureCredential } from '../../scripts/lib/instance-setup';
import { ensureN8nRuntime, repoRoot } from '../../scripts/lib/provision';
import { FULL, type BenchConfig } from '../lib/config';
import { executionCount, FINISHED, firstStartedBetween } from '../lib/deliveries';
import { clockWindowLeftMs, rateLimitFloor, untilIntoWindowMs, type Floor } from '../lib/floor';
import { postJson } from '../lib/http-post';
import { round } from '../lib/measure';
import { benchResultsFile } from '../lib/figure-paths';
import { spikeCaseName } from './case-name';
import { SandboxProcess, type RequestSummary } from '../../dev/sandbox-client';
import { stopTogether } from '../lib/stop-together';
import { startWorkerProxies, type WorkerProxies } from '../lib/worker-proxies';
import { startOtherClient, type OtherClientFigures } from '../lib/other-client';
import { measureWriteRequestTime } from '../scenarios/request-time';
import { leadCaptureWorkflow } from './lead-capture-workflow';
import { sampleMemory, type MemoryPeaks } from './memory';
import { leadsOutcome, perWorkerRefusals, perWorkerWrites, personEmail, personName, routineAdds, windowsOutcome, type LeadsOutcome, type PerWorkerRefusals, type PerWorkerWrites, type WindowsOutcome } from './outcome';

const DEPLOYMENTS = {
	single: undefined,
	'queue-2': { workers: 2, workerConcurrency: 10 },
	'queue-4': { workers: 4, workerConcurrency: 10 },
} as const;
type DeploymentName = keyof typeof DEPLOYMENTS;

/** The sandbox's window, shortened (`--real-window`: the documented 60 s, 200 reads and 100 writes). */
const SHORT_WINDOW = { windowSeconds: 5, readLimit: 40, writeLimit: 40 };
const REAL_WINDOW = { windowSeconds: 60, readLimit: 200, writeLimit: 100 };
let { windowSeconds: WINDOW_SECONDS, readLimit: READ_LIMIT, writeLimit: WRITE_LIMIT } = SHORT_WINDOW;
/** Clock windows: how far into a window every spike begins. */
const SPIKE_PHASE = 0.5;
const WEBHOOK_PATH = 'spike-lead-capture';

const run = promisify(execFile);
const log = (text: string) => process.stderr.write(`[bench spike ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

interface Args {
	posts: number[];
	deployments: DeploymentName[];
	/** People in the double-submit case (one process only); 0 leaves it out. */
	double: number;
	/** Set by --out; else the case's own file. */
	out: string;
	/** Where the sandbox sends X-RateLimit-*: every answer, or 429 answers only. */
	rateHeaders: 'always' | 'on-429';
	clockWindows: boolean;
	realWindow: boolean;
	/** Percent of the key's writes another client spends in every window during a spike; 0: none. */
	otherClient: number;
	/** Queue mode: leave n8n Processes Sharing This Key at 1. */
	processesUnstated: boolean;
	/** n8n's N8N_CONCURRENCY_PRODUCTION_LIMIT for the one-process deployment; n8n's default when absent. */
	concurrencyLimit?: number;
	/** NODE_OPTIONS for n8n's processes, e.g. --max-old-space-size=768; none when absent. */
	nodeOptions?: string;
	/** Before each case, wait until the 1-minute load average is below this (at most 40 minutes); none when absent. */
	waitLoad?: number;
}

function parseArgs(argv: string[]): Args {
	const args: Args = {
		posts: [200, 1000],
		deployments: ['single', 'queue-2', 'queue-4'],
		double: 100,
		out: '',
		rateHeaders: 'always',
		clockWindows: false,
		realWindow: false,
		otherClient: 0,
		processesUnstated: false,
	};
	for (const arg of argv) {
		if (arg.startsWith('--posts=')) args.posts = arg.slice(8).split(',').filter(Boolean).map(Number);
		else if (arg.startsWith('--deployments=')) args.deployments = arg.slice(14).split(',') as DeploymentName[];
		else if (arg.startsWith('--double=')) args.double = Number(arg.slice(9));
		else if (arg.startsWith('--out=')) args.out = path.resolve(arg.slice(6));
		else if (arg.startsWith('--rate-headers=')) args.rateHeaders = arg.slice(15) as Args['rateHeaders'];
		else if (arg === '--clock-windows') args.clockWindows = true;
		else if (arg === '--real-window') args.realWindow = true;
		else if (arg.startsWith('--other-client=')) args.otherClient = Number(arg.slice(15));
		else if (arg === '--processes-unstated') args.processesUnstated = true;
		else if (arg.startsWith('--concurrency-limit=')) args.concurrencyLimit = Number(arg.slice(20));
		else if (arg.startsWith('--node-options=')) args.nodeOptions = arg.slice(15);
		else if (arg.startsWith('--wait-load=')) args.waitLoad = Number(arg.slice(12));
		else {
			throw new Error(
				`unknown option ${arg} (known: --posts=200,1000 --deployments=single,queue-2,queue-4 --double=100 --out=file ` +
					'--rate-headers=always|on-429 --clock-windows --real-window --other-client=10 --processes-unstated --concurrency-limit=N --node-options=... --wait-load=3)',
			);
		}
	}
	if (!['always', 'on-429'].includes(args.rateHeaders)) throw new Error('--rate-headers takes always or on-429');
	if (args.concurrencyLimit !== undefined && !(Number.isInteger(args.concurrencyLimit) && args.concurrencyLimit >= 1)) {
		throw new Error('--concurrency-limit takes a whole number of executions, 1 or more');
	}
	if (args.waitLoad !== undefined && !(args.waitLoad > 0)) throw new Error('--wait-load takes a load average above 0');
	if (args.posts.some((n) => !Number.isInteger(n) || n < 1 || n > 5000)) throw new Error('--posts takes 1 to 5000 per case');
	if (args.deployments.some((d) => !(d in DEPLOYMENTS))) throw new Error(`--deployments takes ${Object.keys(DEPLOYMENTS).join(', ')}`);
	if (!Number.isInteger(args.double) || args.double < 0 || args.double > 500) throw new Error('--double takes 0 to 500 people');
	if (!(args.otherClient >= 0 && args.otherClient < 100)) throw new Error('--other-client takes a percent of the writes, 0 to 99');
	if (args.out === '') args.out = benchResultsFile(spikeCaseName(args));
	return args;
}

interface SpikeCase {
	deployment: DeploymentName;
	kind: 'spike' | 'double-submit';
	posts: number;
	people: number;
	/** Posts n8n answered with anything but 200. */
	postsRefused: number;
	/** Those answers by status and n8n's message (e.g. its database pool timing out under load): what refused them. */
	refusedAnswers: Record<string, number>;
	/** Every execution finished before the deadline. */
	completed: boolean;
	wallMs: number;
	postsAnsweredMs: number;
	/** n8n's intake: from the first post to the start of the first execution (n8n's record), before the node runs at all. */
	n8nIntakeMs: number | null;
	/** From the first execution's start to the service's first call: n8n running that execution up to the node's first call. */
	firstCallAfterStartMs: number | null;
	writesNeeded: number;
	floor: Floor;
	ratioToFloor: number;
	/** The node's first call to the last answer ÷ the floor from that first call (clock windows: its phase). */
	callsRatioToFloor: number | null;
	leads: LeadsOutcome;
	routineAdds: number;
	executions: { succeeded: number; failed: number };
	requests: RequestSummary;
	writes: WindowsOutcome;
	reads: WindowsOutcome;
	/** Queue mode: refusals per worker, from each worker's own proxy. */
	/** 429s to the node's calls (the other client's own refusals taken out). */
	nodeRefusals: number;
	otherClient?: OtherClientFigures;
	workerRefusals?: PerWorkerRefusals;
	/** Queue mode: each write window per worker (calls counted, when its first came), from the proxies. */
	workerWritesPerWindow?: PerWorkerWrites;
	memory: MemoryPeaks;
	loadBefore: number;
	loadAfter: number;
	/** --wait-load: how long the case waited for the machine's load to fall. */
	loadWaitedMs: number;
	/** The targets: one process 0 × 429, ≤ 1.05 ×; queue mode ≤ 1 × 429 per worker per window (processes left at 1: one per window the spike needs), ≤ 1.10 ×; nothing lost or duplicated. */
	target: string;
	met: boolean;
}

interface Context {
	name: DeploymentName;
	n8n: N8nInstance;
	/** Every n8n process, by role, for memory sampling. */
	processes: Array<{ role: string; pid: number }>;
	sandbox: SandboxProcess;
	workflowId: string;
	routineId: string;
	writeRequestMs: number;
	/** Queue mode: the workers' proxies, which tell whose call each refusal was. */
	proxies?: WorkerProxies;
	rateHeaders: Args['rateHeaders'];
	clockWindows: boolean;
	/** Writes another client spends in every window during the spike; 0: none. */
	otherClientWrites: number;
	/** Queue mode: whether the credential states how many workers share the key. */
	processesStated: boolean;
	waitLoad?: number;
}

const LOAD_WAIT_MAX_MS = 40 * 60_000;
const LOAD_POLL_MS = 30_000;

/** Waits until the 1-minute load average is below `below` or 40 minutes have passed; how long it waited. */
async function waitForQuietMachine(below: number): Promise<number> {
	const since = Date.now();
	while (os.loadavg()[0] >= below && Date.now() - since < LOAD_WAIT_MAX_MS) {
		log(`load ${os.loadavg()[0].toFixed(2)}: waiting for it to fall below ${below}`);
		await sleep(LOAD_POLL_MS);
	}
	return Date.now() - since;
}

const FAILED = ['error', 'crashed'];

function processesOf(n8n: N8nInstance): Context['processes'] {
	const queue = n8n.queue;
	if (!queue) return [{ role: 'main', pid: n8n.main.pid }];
	return [
		{ role: 'main', pid: queue.main.pid },
		{ role: 'webhook', pid: queue.webhook.pid },
		...queue.workers.map((worker, i) => ({ role: `worker-${i + 1}`, pid: worker.pid })),
	];
}

/** One post per person, all at once; a double submit posts each person again within a second. */
async function sendPosts(url: string, tag: string, people: number, double: boolean) {
	const body = (i: number) => ({ name: personName(tag, i), company: `${tag} company`, email: personEmail(tag, i) });
	const posts = Array.from({ length: people }, (_, i) => postJson(url, body(i)));
	if (double) {
		// The second post lands 0-1000 ms after the first, spread over the people.
		posts.push(...Array.from({ length: people }, async (_, i) => (await sleep((i * 97) % 1000), await postJson(url, body(i)))));
	}
	return await Promise.all(posts);
}

/** Posts answered with anything but 200, counted by status and the message of n8n's answer. */
function refusalsByAnswer(answers: Array<{ status: number; body: string }>): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const answer of answers) {
		if (answer.status === 200) continue;
		let message = answer.body.slice(0, 120);
		try {
			message = String((JSON.parse(answer.body) as { message?: unknown }).message ?? message);
		} catch {
			// not JSON: the answer's first characters
		}
		const key = `${answer.status} ${message}`.trim();
		counts[key] = (counts[key] ?? 0) + 1;
	}
	return counts;
}

async function runCase(ctx: Context, kind: SpikeCase['kind'], people: number): Promise<SpikeCase> {
	const { sandbox, n8n } = ctx;
	await sandbox.reset();
	ctx.proxies?.clear();
	await sandbox.setRateLimit({ enabled: true, windowSeconds: WINDOW_SECONDS, readLimit: READ_LIMIT, writeLimit: WRITE_LIMIT });
	// The node's budgets remember the previous case's window; let it end on their clocks too.
	await sleep(WINDOW_SECONDS * 1000 + 1500);
	const loadWaitedMs = ctx.waitLoad === undefined ? 0 : await waitForQuietMachine(ctx.waitLoad);
	// Clock windows: a spike that begins at the same point of a window in every run (half-way in), which leaves
	// time for n8n's intake of the posts, so each run is judged on the same share of the first window.
	if (ctx.clockWindows) await sleep(untilIntoWindowMs(Date.now(), WINDOW_SECONDS * 1000, SPIKE_PHASE));
	const double = kind === 'double-submit';
	const posts = double ? people * 2 : people;
	const writesNeeded = people + posts; // one create per person, one routine add per post
	const windowMs = WINDOW_SECONDS * 1000;
	const floorAt = (at: number) =>
		rateLimitFloor({
			requests: writesNeeded,
			limit: WRITE_LIMIT,
			windowMs,
			perRequestMs: ctx.writeRequestMs,
			// Clock windows: the spike begins part-way through one, and only what is left of it must pass.
			firstWindowLeftMs: ctx.clockWindows ? clockWindowLeftMs(at, windowMs) : windowMs,
		});
	let floor = floorAt(Date.now());
	const finishedBefore = await executionCount(n8n.client, ctx.workflowId, FINISHED);
	const failedBefore = await executionCount(n8n.client, ctx.workflowId, FAILED);
	const tag = `${double ? 'D' : 'S'}${posts}${ctx.name.replace('-', '')}`;
	const loadBefore = os.loadavg()[0];
	const memory = sampleMemory(ctx.processes);
	log(`${ctx.name}: ${kind}, ${posts} posts (${people} people) at once; write floor ${(floor.floorMs / 1000).toFixed(1)} s`);

	const startedAt = Date.now();
	floor = floorAt(startedAt);
	const otherClient = ctx.otherClientWrites > 0 ? startOtherClient(sandbox.url, sandbox.apiKey, ctx.otherClientWrites, windowMs) : undefined;
	const answers = await sendPosts(`${n8n.webhookUrl}/webhook/${WEBHOOK_PATH}`, tag, people, double);
	const postsAnsweredMs = Date.now() - startedAt;
	const postsRefused = answers.filter((answer) => answer.status !== 200).length;
	const refusedAnswers = refusalsByAnswer(answers);
	const deadline = Date.now() + 3 * floor.floorMs + 180_000;
	let finished = 0;
	while (Date.now() < deadline) {
		finished = (await executionCount(n8n.client, ctx.workflowId, FINISHED)) - finishedBefore;
		if (finished >= posts - postsRefused) break;
		await sleep(2000);
	}
	const other = await otherClient?.stop();
	const peaks = memory.stop();
	const loadAfter = os.loadavg()[0];
	const failed = (await executionCount(n8n.client, ctx.workflowId, FAILED)) - failedBefore;
	const requests = await sandbox.requestSummary(0);
	const wallMs = (requests.lastAt ?? startedAt) - startedAt;
	const ratioToFloor = round(wallMs / floor.floorMs, 3);
	// The node's own pace: its first call to the service's last answer, against the floor from that first call.
	const callsFloor = requests.firstAt === null ? floor : floorAt(requests.firstAt);
	const callsRatioToFloor = requests.firstAt === null || requests.lastAt === null ? null : round((requests.lastAt - requests.firstAt) / callsFloor.floorMs, 3);
	const firstStartedAt = await firstStartedBetween(n8n.client, ctx.workflowId, startedAt, requests.lastAt ?? Date.now());
	const leads = await leadsOutcome(sandbox, tag, people, ctx.routineId);
	const writes = await windowsOutcome(sandbox, 'write', WINDOW_SECONDS, ctx.clockWindows);
	const reads = await windowsOutcome(sandbox, 'read', WINDOW_SECONDS, ctx.clockWindows);
	const workers = DEPLOYMENTS[ctx.name]?.workers;
	const completed = finished >= posts;
	// The node's refusals: the other client's own are counted apart.
	const nodeRefusals = requests.tooMany - (other?.refused ?? 0);
	const intact = completed && postsRefused === 0 && failed === 0 && leads.createdOnce === people && leads.inRoutine === people;
	const max429 = Math.max(writes.max429PerWindow, reads.max429PerWindow);
	const proxied = workers && ctx.proxies ? ctx.proxies.calls() : undefined;
	const workerRefusals = workers && proxied ? perWorkerRefusals(proxied, workers, WINDOW_SECONDS, ctx.clockWindows) : undefined;
	const workerWritesPerWindow = workers && proxied ? perWorkerWrites(proxied, workers, WINDOW_SECONDS, ctx.clockWindows) : undefined;
	// Per worker when the proxies tell; otherwise no window may draw more refusals than there are workers.
	const withinOnePerWorker = workerRefusals ? workerRefusals.mostInOneWindow <= 1 : max429 <= (workers ?? 0);
	// Headers only on 429: each process learns the window from its first refusal, so a few are expected.
	const headersOn429 = ctx.rateHeaders === 'on-429';
	// Left at 1, the workers learn their parts from the service's counts: at most one 429 per window the spike needs.
	const unstatedRefusals = floor.windowsThatMustPass + 1;
	const met = double
		? intact
		: workers && !ctx.processesStated
		? intact && (headersOn429 || (nodeRefusals <= unstatedRefusals && ratioToFloor <= 1.1))
		: workers
		? intact && (headersOn429 || (withinOnePerWorker && ratioToFloor <= 1.1))
		: other
		? intact
		: intact && nodeRefusals <= (headersOn429 ? 2 : 0) && ratioToFloor <= 1.05;
	return {
		deployment: ctx.name,
		kind,
		posts,
		people,
		postsRefused,
		refusedAnswers,
		completed,
		wallMs,
		postsAnsweredMs,
		n8nIntakeMs: firstStartedAt === undefined ? null : firstStartedAt - startedAt,
		firstCallAfterStartMs: firstStartedAt === undefined || requests.firstAt === null ? null : requests.firstAt - firstStartedAt,
		writesNeeded,
		floor,
		ratioToFloor,
		callsRatioToFloor,
		leads,
		routineAdds: await routineAdds(sandbox, ctx.routineId),
		executions: { succeeded: finished - failed, failed },
		requests,
		writes,
		reads,
		nodeRefusals,
		otherClient: other,
		workerRefusals,
		workerWritesPerWindow,
		memory: peaks,
		loadBefore: round(loadBefore, 2),
		loadAfter: round(loadAfter, 2),
		loadWaitedMs,
		target: double
			? 'one lead per person, nothing failed'
			: other
			? 'nothing lost or duplicated, every execution succeeded (429s reported)'
			: workers
			? headersOn429
				? 'nothing lost or duplicated (429s and time reported)'
				: !ctx.processesStated
				? `nothing lost or duplicated, no execution failed, ≤ ${unstatedRefusals} × 429 (one per window the spike needs), ≤ 1.10 × floor`
				: `≤ ${workers} × 429 per window (1 per worker), ≤ 1.10 × floor, nothing lost or duplicated`
			: `${headersOn429 ? '≤ 2' : '0'} × 429, ≤ 1.05 × floor, nothing lost or duplicated`,
		met,
	};
}

export function describeCase(c: SpikeCase): string {
	const memory = Object.entries(c.memory.peakMbByRole)
		.map(([role, mb]) => `${role} ${mb} MB`)
		.join(', ');
	return (
		`${c.deployment}, ${c.kind} ${c.posts} posts: leads ${c.leads.createdOnce}/${c.people} once, ${c.leads.createdTwiceOrMore} twice+, ${c.leads.missing} never; ` +
		`${c.routineAdds} routine adds; ${c.executions.failed} failed executions${c.completed ? '' : ' (NOT all finished)'}; ` +
		`${c.postsRefused > 0 ? `${c.postsRefused} posts refused by n8n (${Object.entries(c.refusedAnswers).map(([answer, n]) => `${n} × ${answer}`).join('; ')}); ` : ''}` +
		`${c.otherClient ? `other client ${c.otherClient.created}/${c.otherClient.sent} created, ${c.otherClient.refused} refused; node ` : ''}${c.nodeRefusals} × 429 (max ${c.writes.max429PerWindow} per write window, ${c.reads.max429PerWindow} per read window` +
		`${c.workerRefusals ? `; per worker ${c.workerRefusals.perWorker.join('/')}, most to one worker in a window ${c.workerRefusals.mostInOneWindow}` : ''}` +
		`${(c.workerRefusals?.mostInOneWindow ?? 0) > 1 ? ` (${c.workerRefusals?.worst?.afterFirstMs.join(', ')} ms after the first)` : ''}); ` +
		`${(c.wallMs / 1000).toFixed(1)} s = ${c.ratioToFloor} × write floor ${(c.floor.floorMs / 1000).toFixed(1)} s; ` +
		`n8n intake ${c.n8nIntakeMs ?? '?'} ms, first call ${c.firstCallAfterStartMs ?? '?'} ms after; peak RSS ${memory}; load ${c.loadBefore}→${c.loadAfter}`
	);
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	if (args.realWindow) ({ windowSeconds: WINDOW_SECONDS, readLimit: READ_LIMIT, writeLimit: WRITE_LIMIT } = REAL_WINDOW);
	const started = new Date();
	const runtime = await ensureN8nRuntime();
	// One folder per checkout, so runs from two checkouts never share n8n's user folder.
	const benchRoot = path.join(runtime.cacheRoot, `bench-spike-${path.basename(repoRoot)}`);
	const head = (await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot })).stdout.trim();

	let n8n: N8nInstance | undefined;
	let sandbox: SandboxProcess | undefined;
	let proxies: WorkerProxies | undefined;
	const { stopAll, removeInterruptHandlers } = stopTogether(() => ({ n8n, sandbox }));

	const cases: SpikeCase[] = [];
	let writeRequestMs = NaN;
	const starts: Record<string, number> = {};
	const result = () => ({
		startedAt: started.toISOString(),
		head,
		machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memGb: round(os.totalmem() / 2 ** 30, 1), node: process.version },
		n8nVersion: runtime.n8nVersion,
		config: {
			windowSeconds: WINDOW_SECONDS,
			readLimit: READ_LIMIT,
			writeLimit: WRITE_LIMIT,
			posts: args.posts,
			doubleSubmitPeople: args.double,
			responseMode: 'onReceived',
			rateHeaders: args.rateHeaders,
			clockWindows: args.clockWindows,
			concurrencyProductionLimit: args.concurrencyLimit ?? null,
			otherClientPercent: args.otherClient,
			processesStated: !args.processesUnstated,
			nodeOptions: args.nodeOptions ?? null,
			waitLoad: args.waitLoad ?? null,
		},
		writeRequestMs,
		deploymentStartSeconds: starts,
		cases,
	});
	const save = () => {
		mkdirSync(path.dirname(args.out), { recursive: true });
		writeFileSync(args.out, `${JSON.stringify(result(), null, 2)}\n`);
	};
	try {
		sandbox = await SandboxProcess.start({
			windowSeconds: WINDOW_SECONDS,
			readLimit: READ_LIMIT,
			writeLimit: WRITE_LIMIT,
			clockWindows: args.clockWindows,
			rateHeaders: args.rateHeaders,
			dataset: { leads: 50, routines: 3, prospections: 5, activitiesPerProspection: 1, customFields: 1, threads: 1 },
		});
		const perRequestConfig: BenchConfig = { ...FULL, bulkItems: 200, perRequestRepeats: 3 };
		writeRequestMs = round((await measureWriteRequestTime(sandbox, perRequestConfig)).perRequestMs, 3);
		log(`write request time (bare loop, limiter off): ${writeRequestMs} ms`);
		const routineId = (await sandbox.call<Array<{ id: string }>>('routines'))[0].id;

		for (const [index, name] of args.deployments.entries()) {
			const queue = DEPLOYMENTS[name];
			proxies = queue ? await startWorkerProxies(queue.workers) : undefined;
			const workerEnv = proxies?.urls.map((url) => ({ HTTP_PROXY: url, http_proxy: url }));
			const env = {
				...(!queue && args.concurrencyLimit ? { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(args.concurrencyLimit) } : {}),
				...(args.nodeOptions ? { NODE_OPTIONS: args.nodeOptions } : {}),
			};
			n8n = await bootstrapN8n({ runDir: path.join(benchRoot, name), build: index === 0, queue: queue && { ...queue, workerEnv }, env, logLevel: 'warn', say: log });
			starts[name] = n8n.startSeconds;
			log(`${name}: n8n ready in ${n8n.startSeconds} s`);
			const credential = await ensureCredential(n8n.client, {
				baseUrl: sandbox.url,
				apiKey: sandbox.apiKey,
				readsPerWindow: READ_LIMIT,
				writesPerWindow: WRITE_LIMIT,
				rateLimitWindowSeconds: WINDOW_SECONDS,
				// Each worker keeps to its part of the limits, as the docs advise for queue mode.
				...(queue && !args.processesUnstated ? { clientsSharingKey: queue.workers } : {}),
			});
			const stored = await n8n.client.createWorkflow(leadCaptureWorkflow(WEBHOOK_PATH, credential, routineId));
			await n8n.client.activateWorkflow(stored.id, stored.versionId);
			const ctx: Context = {
				name,
				n8n,
				processes: processesOf(n8n),
				sandbox,
				workflowId: stored.id,
				routineId,
				writeRequestMs,
				proxies,
				rateHeaders: args.rateHeaders,
				clockWindows: args.clockWindows,
				otherClientWrites: Math.round((args.otherClient / 100) * WRITE_LIMIT),
				processesStated: !args.processesUnstated,
				waitLoad: args.waitLoad,
			};
			const plan: Array<[SpikeCase['kind'], number]> = args.posts.map((n) => ['spike', n]);
			if (name === 'single' && args.double > 0) plan.push(['double-submit', args.double]);
			for (const [kind, people] of plan) {
				const figure = await runCase(ctx, kind, people);
				cases.push(figure);
				log(describeCase(figure));
				save();
			}
			await n8n.stop();
			n8n = undefined;
			await proxies?.stop();
			proxies = undefined;
		}
	} finally {
		await stopAll();
		await proxies?.stop();
		removeInterruptHandlers();
	}
	save();
	log(`wrote ${path.relative(repoRoot, args.out)}`);
	for (const figure of cases) process.stdout.write(`${describeCase(figure)}\n`);
}

if (require.main === module) {
	main().catch((error) => {
		log(`failed: ${(error as Error).stack ?? error}`);
		process.exit(1);
	});
}
