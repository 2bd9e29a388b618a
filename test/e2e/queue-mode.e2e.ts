/**
 * The package in n8n 2.41.1's queue mode: a main process, one webhook processor and two workers, sharing PostgreSQL,
 * Redis and one user folder with the packed package installed (test/e2e/support/instance.ts). Deliveries reach
 * the webhook processor, executions run on the workers, and two workers use one key at once. Steps run in order.
 * The compatibility results count this file as mode "queue" (summary-reporter.js).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { nodeOutput, type ExecutionSummary, type StoredWorkflow } from '../../scripts/lib/n8n-client';
import { importWorkflows, readWorkflowFiles } from '../../scripts/lib/instance-setup';
import { repoRoot } from '../../scripts/lib/provision';
import { startQueueE2eInstance, type QueueE2eInstance } from './support/instance';
import { decideProspection, waitFor } from './support/waits';
import { chainWorkflow, prospectingNode, webhookTrigger } from './support/workflows';

jest.setTimeout(180_000);

let q: QueueE2eInstance;
let trigger: StoredWorkflow;
let triggerUrl: string;

const TRIGGER_NODE = 'Prospection won or lost';

beforeAll(async () => {
	q = await startQueueE2eInstance({ workers: 2 });
}, 400_000);

afterAll(async () => {
	await q?.stop();
});

const pause = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const remoteWebhooks = () => q.sandbox.control.webhooks();
const successes = async (workflowId: string) =>
	(await q.client.listExecutions(workflowId)).filter((e) => e.status === 'success');
const workerStarts = () => q.deployment.workers.map((w) => (w.output().match(/Worker started execution/g) ?? []).length);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function post(url: string, body: string, headers: Record<string, string> = {}) {
	return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

describe('n8n in queue mode: main, webhook processor and two workers on PostgreSQL and Redis', () => {
	test('every process runs with the package loaded; the main process serves no production webhook', async () => {
		const nodeTypes = (await q.client.nodeTypes()).map((t) => t.name);
		expect(nodeTypes).toEqual(expect.arrayContaining(['n8n-nodes-prospecting.prospecting', 'n8n-nodes-prospecting.prospectingTrigger']));
		const { main, webhook, workers } = q.deployment;
		expect(webhook.output()).toContain('Webhook listener waiting for requests');
		for (const worker of workers) expect(worker.output()).toContain('n8n worker is now ready');
		for (const process of [main, webhook, ...workers]) {
			expect(process.output()).not.toMatch(/Failed to load package "n8n-nodes-prospecting"/);
		}
		expect(q.deployment.webhookUrl).not.toBe(q.deployment.url);
	});

	test('activation leaves exactly one remote webhook, at the webhook processor, which verifies deliveries', async () => {
		const [imported] = await importWorkflows(
			q.client,
			readWorkflowFiles(path.join(repoRoot, 'examples')).filter((w) => w.file === 'won-lost-message.json'),
			{ credential: q.credential },
			{ activate: () => true },
		);
		trigger = imported.workflow;
		const [hook] = await waitFor('the remote webhook', remoteWebhooks, (hooks) => hooks.length > 0, 60_000);
		const node = trigger.nodes.find((n) => n.name === TRIGGER_NODE)!;
		triggerUrl = `${q.deployment.webhookUrl}/webhook/${String(node.webhookId)}/webhook`;
		expect(hook.url).toBe(triggerUrl);
		expect([...hook.events].sort()).toEqual(['prospection.lost', 'prospection.won']);
		// The webhook processor serves the URL: an unsigned post is refused by the trigger there.
		await waitFor('the webhook processor to serve the trigger URL', async () => (await post(triggerUrl, '{}')).status, (s) => s === 401, 60_000);
		// No other process registers a second one (give them time to).
		await pause(3000);
		expect(remoteWebhooks()).toHaveLength(1);
		// The main process does not take production webhook calls.
		const atMain = await post(triggerUrl.replace(q.deployment.webhookUrl, q.deployment.url), '{}');
		expect(atMain.status).toBe(404);
	});

	test('signed deliveries run on the workers, with the delivered event as output', async () => {
		for (const status of ['WON', 'LOST'] as const) {
			const before = (await successes(trigger.id)).length;
			const { prospection, event, delivery } = await decideProspection(q.sandbox, status);
			expect(delivery.delivered).toBe(true);
			const executions = await waitFor('the execution', async () => await successes(trigger.id), (list) => list.length >= before + 1);
			expect(executions).toHaveLength(before + 1);
			const execution = await q.client.getExecution(executions[0].id);
			expect(execution.mode).toBe('webhook');
			expect(nodeOutput(execution, TRIGGER_NODE)[0]).toEqual(JSON.parse(delivery.body));
			expect(nodeOutput(execution, 'Format message')[0]).toEqual(expect.objectContaining({ event, prospectionId: prospection.id, status }));
			expect(q.deployment.workersThatRan(execution.id)).toHaveLength(1);
		}
		expect(q.deployment.main.output()).not.toMatch(/Worker started execution/);
	});

	test('forged deliveries are refused with 401 and run nothing anywhere', async () => {
		const before = (await q.client.listExecutions(trigger.id)).length;
		const startsBefore = sum(workerStarts());
		const genuine = q.sandbox.control.deliveries().find((d) => d.url === triggerUrl && d.delivered)!;
		const forgedBody = JSON.stringify({ ...JSON.parse(genuine.body), id: `${JSON.parse(genuine.body).id}-forged` });
		const wrongSecret = await post(triggerUrl, forgedBody, { 'x-signature': createHmac('sha256', 'not-the-secret').update(forgedBody).digest('hex') });
		expect(wrongSecret.status).toBe(401);
		const changedBody = await post(triggerUrl, forgedBody, { 'x-signature': genuine.signature });
		expect(changedBody.status).toBe(401);
		await pause(2000);
		expect(await q.client.listExecutions(trigger.id)).toHaveLength(before);
		expect(sum(workerStarts())).toBe(startsBefore);
	});

	test('one event delivered three times at once runs once', async () => {
		const before = (await successes(trigger.id)).length;
		const [hook] = remoteWebhooks();
		const prospection = q.sandbox.control.prospections().find((p) => p.status === 'WON')!;
		const eventId = `evt-${randomUUID()}`;
		const body = JSON.stringify({
			id: eventId,
			test: false,
			event: 'prospection.won',
			data: { prospection },
			retries: 0,
			manualRetries: 0,
			createdAt: new Date().toISOString(),
		});
		const signature = createHmac('sha256', hook.secret).update(body).digest('hex');
		const responses = await Promise.all([1, 2, 3].map(async () => await post(triggerUrl, body, { 'x-signature': signature })));
		// Every copy is acknowledged (the service must not retry), but only one starts the workflow.
		expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
		await waitFor('the execution', async () => await successes(trigger.id), (list) => list.length >= before + 1);
		await pause(3000);
		const after = await successes(trigger.id);
		const fresh = after.slice(0, after.length - before);
		const ran = await Promise.all(fresh.map(async (e) => nodeOutput(await q.client.getExecution(e.id), TRIGGER_NODE)[0]?.id));
		expect(ran).toEqual([eventId]);
	});

	test('two Return All walks with one key on two workers at once both return every record once', async () => {
		const walk = chainWorkflow('E2E queue walk', [
			{ ...webhookTrigger('e2e-queue-walk'), parameters: { httpMethod: 'POST', path: 'e2e-queue-walk', responseMode: 'lastNode', responseData: 'allEntries', options: {} } },
			prospectingNode('Get all leads', { resource: 'lead', operation: 'getMany', returnAll: true, filters: {}, options: { pageSize: 10 } }),
		]);
		const [imported] = await importWorkflows(q.client, [{ file: 'walk.json', workflow: walk }], { credential: q.credential }, { activate: () => true });
		const url = `${q.deployment.webhookUrl}/webhook/e2e-queue-walk`;
		const expected = q.sandbox.control.leads().map((l) => l.id).sort();
		const pages = Math.ceil(expected.length / 10);
		// A small read budget, so that the two walks (two processes, one key) must share several windows.
		q.sandbox.control.setRateLimit({ windowSeconds: 2, readLimit: Math.ceil(pages / 2) });
		const from = q.sandbox.control.requests().length;
		let results: Array<{ status: number; ids: string[] }>;
		try {
			results = await Promise.all(
				[1, 2].map(async () => {
					const response = await post(url, '{}');
					const text = await response.text();
					const items = response.ok ? (JSON.parse(text) as Array<{ id: string }>) : [];
					if (!response.ok) process.stderr.write(`walk answered ${response.status}: ${text.slice(0, 500)}\n`);
					return { status: response.status, ids: items.map((item) => item.id) };
				}),
			);
		} finally {
			q.sandbox.control.setRateLimit({ windowSeconds: 60, readLimit: 200 });
		}
		const reads = q.sandbox.control.requests().slice(from).filter((r) => r.path === '/api/v1/leads');
		process.stderr.write(
			`[e2e queue] two walks: ${reads.length} reads, ${reads.filter((r) => r.status === 429).length} answered 429 (budget ${Math.ceil(pages / 2)} per 2 s)\n`,
		);
		for (const result of results) {
			expect(result.status).toBe(200);
			expect(result.ids).toHaveLength(expected.length);
			expect([...result.ids].sort()).toEqual(expected);
		}
		const executions: ExecutionSummary[] = await q.client.waitForExecutions(imported.workflow.id, 2);
		expect(executions.map((e) => e.status)).toEqual(['success', 'success']);
		const ranOn = executions.map((e) => q.deployment.workersThatRan(e.id));
		expect(ranOn.every((workers) => workers.length === 1)).toBe(true);
		expect(new Set(ranOn.map((workers) => workers[0])).size).toBe(2);
		// And at once: each started before the other finished.
		const [a, b] = executions.map((e) => ({ start: Date.parse(e.startedAt!), stop: Date.parse(e.stoppedAt!) }));
		expect(a.start < b.stop && b.start < a.stop).toBe(true);
	});

	test('deactivation removes the remote webhook; activating again leaves exactly one', async () => {
		await q.client.deactivateWorkflow(trigger.id);
		await waitFor('the remote webhook to be deleted', remoteWebhooks, (hooks) => hooks.length === 0, 60_000);
		await q.client.activateWorkflow(trigger.id);
		await waitFor('the remote webhook to be created', remoteWebhooks, (hooks) => hooks.length > 0, 60_000);
		await pause(3000);
		expect(remoteWebhooks()).toHaveLength(1);
		expect(remoteWebhooks()[0].url).toBe(triggerUrl);
	});

	test("no process's log holds the API key", () => {
		const key = q.sandbox.apiKey;
		const { logFiles } = q.deployment;
		for (const file of [logFiles.main, logFiles.webhook, ...logFiles.workers]) {
			const text = readFileSync(file, 'utf8');
			for (const form of [key, encodeURIComponent(key), Buffer.from(key).toString('base64')]) {
				if (text.includes(form)) throw new Error(`${path.basename(file)} contains the API key`);
			}
		}
	});
});
