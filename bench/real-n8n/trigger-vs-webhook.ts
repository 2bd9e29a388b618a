/**
 * The Prospecting Trigger against n8n's own Webhook node in real n8n, side by side in one run:
 * both workflows active on the same instance, both answering on receipt with no downstream node,
 * loaded in alternating order (the order reverses every round) so that a noisy machine slows both
 * alike. Every trigger request is a new event signed with the secret the sandbox holds for the
 * webhook the trigger registered; the Webhook node gets the same bodies unsigned.
 *
 * n8n runs with its default settings and with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true (an n8n
 * 2.41.1 setting: an expression isolate is created only when an expression is evaluated), each as
 * one process and in queue mode (main, one webhook processor that receives the load, two workers
 * that run the executions; PostgreSQL and Redis on loopback). See BENCHMARKS.md, "Trigger", for why
 * the settings differ for any trigger node other than n8n's own Webhook node.
 *
 * Diagnostic sides (single process only): the trigger at type version 1 (n8n evaluates an
 * expression for every request to a version-1 webhook node) and the trigger with Ignore Repeated
 * Deliveries off (no static-data write per delivery).
 *
 *   npx ts-node --transpile-only bench/real-n8n/trigger-vs-webhook.ts [--write] [--rounds=3] [--seconds=6] [--no-queue]
 *
 * Writes bench/tmp/results.n8n-trigger.json, or bench/results.n8n-trigger.json with --write.
 */
import { execFile } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import autocannon from 'autocannon';

import { ensureOwner } from '../../scripts/lib/instance-setup';
import { N8nClient } from '../../scripts/lib/n8n-client';
import { startN8n } from '../../scripts/lib/n8n-process';
import { installPackageTarball, packPackage } from '../../scripts/lib/package-install';
import { freePort } from '../../scripts/lib/ports';
import { ensureN8nRuntime, repoRoot } from '../../scripts/lib/provision';
import { startQueueDeployment } from '../../scripts/lib/queue-deployment';
import { median, round } from '../lib/measure';
import { SandboxProcess } from '../lib/sandbox-client';
import { triggerWorkflow } from './workflows';

const run = promisify(execFile);

interface Side {
	key: string;
	label: string;
	url: string;
	sign?: (body: string) => Record<string, string>;
	workflowId: string;
	/** Diagnostic sides are measured but not part of the ratio. */
	diagnostic: boolean;
}

interface Sample {
	round: number;
	order: number;
	requestsPerSecond: number;
	p50Ms: number;
	p99Ms: number;
	requests: number;
	non2xx: number;
	errors: number;
	loadAverage: number;
}

interface SideFigures {
	label: string;
	/** All requests of all rounds over all their seconds. */
	requestsPerSecond: number;
	/** Median of the rounds' p50 and p99. */
	p50Ms: number;
	p99Ms: number;
	non2xx: number;
	errors: number;
	samples: Sample[];
}

function argValue(name: string, fallback: number): number {
	const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
	return arg ? Number(arg.split('=')[1]) : fallback;
}

const ROUNDS = argValue('rounds', 3);
const SECONDS = argValue('seconds', 6);
const CONNECTIONS = [1, 10];
const WRITE = process.argv.includes('--write');
const QUEUE = !process.argv.includes('--no-queue');
const ENCRYPTION_KEY = 'n8n-nodes-prospecting-bench-encryption-key';
const log = (text: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${text}\n`);

function envelope(index: number): string {
	const now = new Date().toISOString();
	return JSON.stringify({
		id: `evt_bench_${index}_${randomUUID()}`,
		test: false,
		event: index % 2 ? 'prospection.lost' : 'prospection.won',
		data: {
			prospection: { id: `pr_bench_${index}`, status: index % 2 ? 'LOST' : 'WON', leadId: 'ld_bench', createdAt: now },
			lead: { id: 'ld_bench', name: 'Bench Lead', company: 'Benchmark Ltda' },
		},
		retries: 0,
		manualRetries: 0,
		createdAt: now,
	});
}

async function load(side: Side, connections: number, seconds: number) {
	let index = 0;
	const result = await autocannon({
		url: side.url,
		connections,
		duration: seconds,
		timeout: 30,
		requests: [
			{
				method: 'POST',
				setupRequest: (request: Record<string, unknown>) => {
					const body = envelope(index++);
					return { ...request, body, headers: { 'content-type': 'application/json', ...(side.sign?.(body) ?? {}) } };
				},
			},
		],
	} as autocannon.Options);
	return {
		requestsPerSecond: result.requests.average,
		p50Ms: result.latency.p50,
		p99Ms: result.latency.p99,
		requests: result['2xx'] + result.non2xx,
		non2xx: result.non2xx,
		errors: result.errors + result.timeouts,
	};
}

async function executionCount(client: N8nClient, workflowId: string): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	return (await client.request<{ count: number }>('GET', `/rest/executions?filter=${filter}&limit=1`)).count;
}

async function settledExecutionCount(client: N8nClient, workflowId: string): Promise<number> {
	let last = -1;
	for (let i = 0; i < 120; i++) {
		const count = await executionCount(client, workflowId);
		if (count === last) return count;
		last = count;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	return last;
}

async function webhooks(sandbox: SandboxProcess, count: number) {
	let hooks: Array<{ url: string; secret: string }> = [];
	for (let i = 0; i < 120; i++) {
		hooks = await sandbox.call<Array<{ url: string; secret: string }>>('webhooks');
		if (hooks.length >= count) break;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return hooks;
}

async function post(url: string, body: string, headers: Record<string, string> = {}) {
	const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
	await response.arrayBuffer();
	return response.status;
}

type Deployment = 'single' | 'queue';

/** n8n as one process, or in queue mode: REST on the main process, production webhooks on `webhookUrl`. */
async function startDeployment(options: {
	deployment: Deployment;
	extraEnv: Record<string, string>;
	userFolder: string;
	runtime: Awaited<ReturnType<typeof ensureN8nRuntime>>;
	logDir: string;
}): Promise<{ url: string; webhookUrl: string; stop(): Promise<void> }> {
	const common = { runtime: options.runtime, userFolder: options.userFolder, encryptionKey: ENCRYPTION_KEY, logLevel: 'warn' as const, env: options.extraEnv };
	mkdirSync(options.logDir, { recursive: true });
	if (options.deployment === 'queue') {
		const queue = await startQueueDeployment({ ...common, logDir: options.logDir, workers: 2 });
		return { url: queue.url, webhookUrl: queue.webhookUrl, stop: async () => await queue.stop() };
	}
	const n8n = await startN8n({ ...common, port: await freePort(), brokerPort: await freePort(), logFile: path.join(options.logDir, 'n8n.log') });
	return { url: n8n.url, webhookUrl: n8n.url, stop: async () => await n8n.stop() };
}

/** One n8n configuration: set up both sides (and the diagnostics), then alternate rounds. */
async function measureConfiguration(options: {
	name: string;
	deployment: Deployment;
	extraEnv: Record<string, string>;
	userFolder: string;
	sandbox: SandboxProcess;
	runtime: Awaited<ReturnType<typeof ensureN8nRuntime>>;
	logDir: string;
}) {
	const { sandbox } = options;
	await sandbox.reset();
	await sandbox.setRateLimit({ enabled: false });
	let n8n: Awaited<ReturnType<typeof startDeployment>> | undefined;
	try {
		n8n = await startDeployment(options);
		const client = new N8nClient(n8n.url, options.runtime.n8nPackageDir);
		await ensureOwner(client, { email: 'bench@example.com', firstName: 'Bench', lastName: 'Owner', password: 'Prospecting-bench-1' });
		const plain = await client.createWorkflow({
			name: 'Bench: n8n Webhook node',
			nodes: [
				{
					id: 'plain-hook',
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: 'bench-plain-webhook-id',
					parameters: { httpMethod: 'POST', path: 'bench-plain', responseMode: 'onReceived', options: {} },
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		await client.activateWorkflow(plain.id, plain.versionId);
		const credential = await client.createCredential('Prospecting API (bench)', 'prospectingApi', {
			baseUrl: sandbox.url,
			apiKey: sandbox.apiKey,
		});
		const triggers = [
			{ key: 'trigger', label: 'Prospecting Trigger 1.1 (default options)', typeVersion: 1.1, nodeOptions: {}, diagnostic: false },
			{ key: 'triggerV1', label: 'Prospecting Trigger 1 (diagnostic)', typeVersion: 1, nodeOptions: {}, diagnostic: true },
			{ key: 'triggerNoMemory', label: 'Prospecting Trigger 1.1, Ignore Repeated Deliveries off (diagnostic)', typeVersion: 1.1, nodeOptions: { ignoreRepeatedDeliveries: false }, diagnostic: true },
		].filter((t) => options.deployment === 'single' || !t.diagnostic);
		const ids: Record<string, string> = {};
		for (const t of triggers) {
			const workflow = await client.createWorkflow(
				triggerWorkflow({ name: `Bench: ${t.label}`, credential: { id: credential.id, name: credential.name }, webhookId: `bench-${t.key}-id`, options: t.nodeOptions, typeVersion: t.typeVersion }),
			);
			await client.activateWorkflow(workflow.id, workflow.versionId);
			ids[t.key] = workflow.id;
		}
		const hooks = await webhooks(sandbox, triggers.length);
		const sides: Side[] = [{ key: 'webhookNode', label: "n8n's Webhook node 2 (onReceived, no verification)", url: `${n8n.webhookUrl}/webhook/bench-plain`, workflowId: plain.id, diagnostic: false }];
		for (const t of triggers) {
			const hook = hooks.find((h) => h.url.includes(`bench-${t.key}-id`));
			if (!hook) throw new Error(`the trigger ${t.key} registered no webhook with the sandbox`);
			sides.push({
				key: t.key,
				label: t.label,
				url: hook.url,
				sign: (body) => ({ 'x-signature': createHmac('sha256', hook.secret).update(body).digest('hex') }),
				workflowId: ids[t.key],
				diagnostic: t.diagnostic,
			});
		}
		// n8n publishes activated workflows in the background: wait until every side answers.
		for (const side of sides) {
			for (let i = 0; i < 120; i++) {
				const body = envelope(-1 - i);
				if ((await post(side.url, body, side.sign?.(body))) === 200) break;
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
		}

		// Guarantees on this very instance: a forged delivery is refused and starts nothing; the
		// same event delivered three times at once starts one execution.
		const trigger = sides.find((s) => s.key === 'trigger') as Side;
		const before = await settledExecutionCount(client, trigger.workflowId);
		const forgedBody = envelope(1_000_000);
		const forgedStatus = await post(trigger.url, forgedBody, { 'x-signature': createHmac('sha256', 'not-the-secret').update(forgedBody).digest('hex') });
		const repeatBody = envelope(2_000_000);
		const repeatStatuses = await Promise.all([1, 2, 3].map(() => post(trigger.url, repeatBody, trigger.sign?.(repeatBody))));
		const after = await settledExecutionCount(client, trigger.workflowId);
		const guarantees = { forgedStatus, repeatStatuses, executionsStarted: after - before };
		log(`${options.name}: forged → ${forgedStatus}; one event three times at once → ${repeatStatuses.join(', ')}; executions started: ${after - before}`);

		// Warm-up, then the rounds.
		for (const side of sides) await load(side, 1, 2);
		const samples: Record<string, Record<number, Sample[]>> = {};
		for (let r = 0; r < ROUNDS; r++) {
			for (const connections of CONNECTIONS) {
				const order = r % 2 === 0 ? sides : [...sides].reverse();
				for (const [position, side] of order.entries()) {
					const figures = await load(side, connections, SECONDS);
					const sample: Sample = { round: r + 1, order: position + 1, ...figures, requestsPerSecond: round(figures.requestsPerSecond, 2), loadAverage: round(loadavg()[0], 2) };
					((samples[side.key] ??= {})[connections] ??= []).push(sample);
					log(`${options.name} round ${r + 1}, ${connections} conn., ${side.key}: ${sample.requestsPerSecond} req/s, p50 ${sample.p50Ms} ms, p99 ${sample.p99Ms} ms (load ${sample.loadAverage})`);
					// Let the executions the load started finish before the next side.
					await settledExecutionCount(client, side.workflowId);
				}
			}
		}

		const byConnections: Record<string, Record<string, SideFigures>> = {};
		const ratios: Record<string, Record<string, { throughput: number; p50: number }>> = {};
		for (const connections of CONNECTIONS) {
			const figures: Record<string, SideFigures> = {};
			for (const side of sides) {
				const list = samples[side.key][connections];
				const requests = list.reduce((sum, s) => sum + s.requests, 0);
				figures[side.key] = {
					label: side.label,
					requestsPerSecond: round(requests / (list.length * SECONDS), 2),
					p50Ms: median(list.map((s) => s.p50Ms)),
					p99Ms: median(list.map((s) => s.p99Ms)),
					non2xx: list.reduce((sum, s) => sum + s.non2xx, 0),
					errors: list.reduce((sum, s) => sum + s.errors, 0),
					samples: list,
				};
			}
			byConnections[connections] = figures;
			const base = figures.webhookNode;
			ratios[connections] = Object.fromEntries(
				sides
					.filter((s) => s.key !== 'webhookNode')
					.map((s) => [
						s.key,
						{
							throughput: round(figures[s.key].requestsPerSecond / base.requestsPerSecond, 2),
							// Latency as a speed ratio: 1 means the same p50, 0.5 twice the p50.
							p50: round(base.p50Ms / figures[s.key].p50Ms, 2),
						},
					]),
			);
		}
		return { name: options.name, deployment: options.deployment, extraEnv: options.extraEnv, guarantees, byConnections, ratios };
	} finally {
		await n8n?.stop().catch(() => undefined);
	}
}

async function main() {
	const startedAt = new Date();
	const loadAtStart = loadavg().map((v) => round(v, 2));
	const runtime = await ensureN8nRuntime();
	const work = mkdtempSync(path.join(tmpdir(), 'prospecting-trigger-bench-'));
	const sandbox = await SandboxProcess.start({ windowSeconds: 5, readLimit: 200, writeLimit: 100, dataset: { leads: 10 } });
	const configurations: unknown[] = [];
	try {
		log('building and packing the package');
		await run('npm', ['run', '--silent', 'build'], { cwd: repoRoot, maxBuffer: 32 * 1024 * 1024 });
		const tarball = await packPackage(path.join(work, 'pack'));
		const settings: Array<[string, Record<string, string>]> = [
			['n8n default settings', {}],
			['N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true', { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' }],
		];
		const deployments: Deployment[] = QUEUE ? ['single', 'queue'] : ['single'];
		let index = 0;
		for (const deployment of deployments) {
			for (const [setting, extraEnv] of settings) {
				const userFolder = path.join(work, `user-${index}`);
				await installPackageTarball(userFolder, tarball);
				const name = `${deployment === 'queue' ? 'queue mode' : 'single process'}, ${setting}`;
				configurations.push(await measureConfiguration({ name, deployment, extraEnv, userFolder, sandbox, runtime, logDir: path.join(work, `logs-${index}`) }));
				index++;
			}
		}
	} finally {
		await sandbox.stop();
		rmSync(work, { recursive: true, force: true });
	}
	const results = {
		startedAt: startedAt.toISOString(),
		totalSeconds: round((Date.now() - startedAt.getTime()) / 1000, 1),
		machine: { cores: cpus().length, cpuModel: cpus()[0]?.model.split(' ').slice(0, 2).join(' '), memoryGb: round(totalmem() / 2 ** 30, 1), node: process.version },
		n8nVersion: runtime.n8nVersion,
		queueMode: QUEUE ? 'main + 1 webhook processor (receives the load) + 2 workers (concurrency 10 each), PostgreSQL and Redis on loopback' : 'not run',
		method: `${ROUNDS} rounds × ${CONNECTIONS.join(' and ')} connection(s) × ${SECONDS} s per side; order reversed every round; throughput = all requests of all rounds / all their seconds; p50 and p99 = median of the rounds'`,
		loadAverage: { atStart: loadAtStart, atEnd: loadavg().map((v) => round(v, 2)) },
		configurations,
	};
	const outFile = path.join(__dirname, '..', WRITE ? '' : 'tmp', 'results.n8n-trigger.json');
	mkdirSync(path.dirname(outFile), { recursive: true });
	writeFileSync(outFile, `${JSON.stringify(results, null, '\t')}\n`);
	log(`wrote ${path.relative(process.cwd(), outFile)}`);
	for (const c of configurations as Array<{ name: string; ratios: unknown }>) log(`${c.name}: ratios ${JSON.stringify(c.ratios)}`);
}

main().then(
	() => process.exit(0),
	(error) => {
		log(`failed: ${(error as Error).stack ?? error}`);
		process.exit(1);
	},
);
