/**
 * `npx ts-node --transpile-only bench/spike/n8n-baseline.ts [--posts=1000,1000,1000] [--wait-seconds=5]
 *   [--concurrency-limit=20] [--node-options=--max-old-space-size=768] [--out=file]`
 *
 * n8n's own cost of a spike, beside the lead-capture spike of `npm run bench:spike`: the same posts at once into n8n's
 * Webhook node → n8n's Wait node (a wait under 65 s stays in memory, as the rate budget's waits do), one process with
 * the same settings, no Prospecting node. Per run: peak RSS of n8n, time from the first post to the last execution's
 * end, executions that did not succeed. Writes bench/results/results.spike.n8n-baseline-<case>.json (the case from
 * --posts, --concurrency-limit and --node-options, as bench/spike/case-name.ts names it), overwritten by the same case.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { bootstrapN8n, type N8nInstance } from '../../scripts/lib/bootstrap';
import type { WorkflowJson } from '../../scripts/lib/n8n-client';
import { ensureN8nRuntime, repoRoot } from '../../scripts/lib/provision';
import { executionCount, FINISHED } from '../lib/deliveries';
import { postJson } from '../lib/http-post';
import { round } from '../lib/measure';
import { benchResultsFile } from '../lib/figure-paths';
import { spikeCaseName } from './case-name';
import { sampleMemory } from './memory';
import { personEmail, personName } from './outcome';

const WEBHOOK_PATH = 'spike-n8n-baseline';
/** Polls of n8n's executions while a run ends. */
const POLL_MS = 2000;

const log = (text: string) => process.stderr.write(`[bench baseline ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

function parseArgs(argv: string[]) {
	const args = { posts: [1000], waitSeconds: 5, concurrencyLimit: undefined as number | undefined, nodeOptions: undefined as string | undefined, out: '' };
	for (const arg of argv) {
		const [name, value = ''] = arg.split(/=(.*)/s);
		if (name === '--posts') args.posts = value.split(',').filter(Boolean).map(Number);
		else if (name === '--wait-seconds') args.waitSeconds = Number(value);
		else if (name === '--concurrency-limit') args.concurrencyLimit = Number(value);
		else if (name === '--node-options') args.nodeOptions = value;
		else if (name === '--out') args.out = path.resolve(value);
		else throw new Error(`unknown option ${arg} (known: --posts=1000 --wait-seconds=5 --concurrency-limit=N --node-options=... --out=file)`);
	}
	if (args.posts.some((n) => !Number.isInteger(n) || n < 1 || n > 5000)) throw new Error('--posts takes 1 to 5000 per run');
	if (!(args.waitSeconds > 0 && args.waitSeconds < 65)) throw new Error('--wait-seconds takes more than 0 and less than 65');
	if (args.out === '') args.out = benchResultsFile(spikeCaseName({ ...args, deployments: ['n8n-baseline'] }));
	return args;
}

function webhookToWait(waitSeconds: number): WorkflowJson {
	return {
		name: 'Spike bench: n8n baseline, Webhook → Wait',
		nodes: [
			{
				id: 'webhook',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: `${WEBHOOK_PATH}-id`,
				parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'onReceived', options: {} },
			},
			{
				id: 'wait',
				name: 'Wait',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				position: [200, 0],
				parameters: { resume: 'timeInterval', amount: waitSeconds, unit: 'seconds' },
			},
		],
		connections: { Webhook: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] } },
		settings: {},
	} as WorkflowJson;
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const runtime = await ensureN8nRuntime();
	const runs: Array<Record<string, unknown>> = [];
	const startedAt = new Date().toISOString();
	let n8n: N8nInstance | undefined;
	try {
		const env = {
			...(args.concurrencyLimit ? { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(args.concurrencyLimit) } : {}),
			...(args.nodeOptions ? { NODE_OPTIONS: args.nodeOptions } : {}),
		};
		n8n = await bootstrapN8n({ runDir: path.join(runtime.cacheRoot, `bench-baseline-${path.basename(repoRoot)}`), env, logLevel: 'warn', say: log });
		const stored = await n8n.client.createWorkflow(webhookToWait(args.waitSeconds));
		await n8n.client.activateWorkflow(stored.id, stored.versionId);
		for (const [index, posts] of args.posts.entries()) {
			await sleep(5000);
			const finishedBefore = await executionCount(n8n.client, stored.id, FINISHED);
			const succeededBefore = await executionCount(n8n.client, stored.id, ['success']);
			const memory = sampleMemory([{ role: 'main', pid: n8n.main.pid }]);
			const started = Date.now();
			const url = `${n8n.webhookUrl}/webhook/${WEBHOOK_PATH}`;
			const answers = await Promise.all(Array.from({ length: posts }, (_, i) => postJson(url, { name: personName(`B${index}`, i), email: personEmail(`B${index}`, i) })));
			// Every execution waits at least the Wait node's time; at most one batch of the limit per wait after that.
			const deadline = Date.now() + (posts / (args.concurrencyLimit ?? posts) + 2) * args.waitSeconds * 1000 + 180_000;
			let finished = 0;
			while (Date.now() < deadline && finished < posts) {
				await sleep(POLL_MS);
				finished = (await executionCount(n8n.client, stored.id, FINISHED)) - finishedBefore;
			}
			const wallMs = Date.now() - started;
			const peaks = memory.stop();
			const succeeded = (await executionCount(n8n.client, stored.id, ['success'])) - succeededBefore;
			const figure = { posts, postsRefused: answers.filter((answer) => answer.status !== 200).length, succeeded, wallMs, peakRssMb: peaks.peakMbByRole.main, load: round(os.loadavg()[0], 2) };
			runs.push(figure);
			log(JSON.stringify(figure));
		}
	} finally {
		await n8n?.stop();
	}
	const result = { startedAt, n8nVersion: runtime.n8nVersion, config: { waitSeconds: args.waitSeconds, concurrencyProductionLimit: args.concurrencyLimit ?? null, nodeOptions: args.nodeOptions ?? null }, runs };
	mkdirSync(path.dirname(args.out), { recursive: true });
	writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
	log(`wrote ${path.relative(repoRoot, args.out)}`);
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});
