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
 * Writes bench/tmp/results.n8n-trigger.json, or bench/results/results.n8n-trigger.json with --write.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';

import { bootstrapN8n, type N8nInstance } from '../../scripts/lib/bootstrap';
import { stopOnInterrupt } from '../../scripts/lib/interrupt';
import { buildPackage } from '../../scripts/lib/package-install';
import { ensureN8nRuntime } from '../../scripts/lib/provision';
import {
	envelope,
	forgedSignatureHeaders,
	loadDeliveries,
	settledExecutionCount,
	signatureHeaders,
	webhooksWhen,
} from '../lib/deliveries';
import { median, round } from '../lib/measure';
import { benchResultsFile } from '../lib/figure-paths';
import { SandboxProcess } from '../../dev/sandbox-client';
import { PLAIN_WEBHOOK_PATH, plainWebhookWorkflow, triggerWorkflow } from './workflows';


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
const log = (text: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${text}\n`);

async function load(side: Side, connections: number, seconds: number) {
	const result = await loadDeliveries(side.url, { connections, seconds, sign: side.sign });
	return {
		requestsPerSecond: result.requests.average,
		p50Ms: result.latency.p50,
		p99Ms: result.latency.p99,
		requests: result['2xx'] + result.non2xx,
		non2xx: result.non2xx,
		errors: result.errors + result.timeouts,
	};
}

async function post(url: string, body: string, headers: Record<string, string> = {}) {
	const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
	await response.arrayBuffer();
	return response.status;
}

type Deployment = 'single' | 'queue';

/** One n8n configuration: set up both sides (and the diagnostics), then alternate rounds. */
async function measureConfiguration(options: {
	name: string;
	deployment: Deployment;
	extraEnv: Record<string, string>;
	runDir: string;
	sandbox: SandboxProcess;
}) {
	const { sandbox } = options;
	await sandbox.reset();
	await sandbox.setRateLimit({ enabled: false });
	let n8n: N8nInstance | undefined;
	const removeInterruptHandlers = stopOnInterrupt(async () => await n8n?.stop());
	try {
		// Queue mode: REST on the main process, the load on the webhook processor (n8n.webhookUrl), two workers.
		n8n = await bootstrapN8n({
			runDir: options.runDir,
			queue: options.deployment === 'queue' ? { workers: 2 } : undefined,
			logLevel: 'warn',
			env: options.extraEnv,
		});
		const { client } = n8n;
		const plain = await client.createWorkflow(plainWebhookWorkflow('Bench: n8n Webhook node'));
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
		const hooks = await webhooksWhen(sandbox, (count) => count >= triggers.length);
		const sides: Side[] = [{ key: 'webhookNode', label: "n8n's Webhook node 2 (onReceived, no verification)", url: `${n8n.webhookUrl}/webhook/${PLAIN_WEBHOOK_PATH}`, workflowId: plain.id, diagnostic: false }];
		for (const t of triggers) {
			const hook = hooks.find((h) => h.url.includes(`bench-${t.key}-id`));
			if (!hook) throw new Error(`the trigger ${t.key} registered no webhook with the sandbox`);
			sides.push({
				key: t.key,
				label: t.label,
				url: hook.url,
				sign: (body) => signatureHeaders(hook.secret, body),
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
		const forgedStatus = await post(trigger.url, forgedBody, forgedSignatureHeaders(forgedBody));
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
		removeInterruptHandlers();
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
		log('building the package');
		await buildPackage();
		const settings: Array<[string, Record<string, string>]> = [
			['n8n default settings', {}],
			['N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true', { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' }],
		];
		const deployments: Deployment[] = QUEUE ? ['single', 'queue'] : ['single'];
		let index = 0;
		for (const deployment of deployments) {
			for (const [setting, extraEnv] of settings) {
				const name = `${deployment === 'queue' ? 'queue mode' : 'single process'}, ${setting}`;
				configurations.push(await measureConfiguration({ name, deployment, extraEnv, sandbox, runDir: path.join(work, `run-${index}`) }));
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
	const outFile = benchResultsFile('n8n-trigger', { kept: WRITE });
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
