/**
 * The example MCP server (examples/mcp/prospecting-mcp-server.json) in n8n's queue mode: a main process that serves no
 * production URL, one webhook processor and two workers on PostgreSQL and Redis. MCP clients connect to the webhook
 * processor, which holds their sessions; every tool call is recorded as an execution that a worker runs (by n8n's code,
 * 2.x invokes the tool on that worker, 1.x in the webhook processor before queueing the record). Steps run in order.
 * The compatibility results count this file as mode "queue" (scripts/e2e.sh runs files ending in queue-mode.e2e.ts
 * in the queue pass).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import type { StoredWorkflow } from '../../scripts/lib/n8n-client';
import { mcpServerUrl } from '../../scripts/lib/demo-mcp';
import { startQueueE2eInstance, type QueueE2eInstance } from './support/instance';
import { callTool, initializeStatus, MCP_TOOL_NAMES, openMcpExamples, type McpExamples } from './support/mcp';

jest.setTimeout(180_000);

let q: QueueE2eInstance;
let mcp: McpExamples | undefined;
let dry: StoredWorkflow;
let live: StoredWorkflow;
let client: Client;
let liveClient: Client;

beforeAll(async () => {
	q = await startQueueE2eInstance({ workers: 2 });
	mcp = await openMcpExamples(q.client, q.runtime.n8nVersion, q.credential, q.deployment.webhookUrl);
	({ dry, live, client, liveClient } = mcp);
}, 400_000);

afterAll(async () => {
	await mcp?.close();
	await q?.stop();
});

const writes = () => q.sandbox.control.requests().filter((request) => request.kind === 'write');
const leadsWithEmail = (email: string) => q.sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));

/** Waits until the workflow has `count` finished executions; returns them. */
async function finishedExecutions(workflowId: string, count: number) {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const executions = (await q.client.listExecutions(workflowId)).filter((e) => e.status !== 'running' && e.status !== 'new');
		if (executions.length >= count || Date.now() > deadline) return executions;
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
}

describe('the example MCP server in queue mode, called by the official MCP client through the webhook processor', () => {
	test('the webhook processor serves the MCP URL and the main process does not', async () => {
		const onMain = await fetch(mcpServerUrl(q.deployment.url, dry), {
			method: 'POST',
			headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }),
		});
		expect(onMain.status).toBe(404);
		// The webhook processor checks the example's Bearer token.
		expect([401, 403]).toContain(await initializeStatus(q.deployment.webhookUrl, dry));
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOL_NAMES);
		expect(tools.find((tool) => tool.name === 'create_lead')?.description).toMatch(/DRY RUN/);
	});

	// First of the calls, while the node's rate budget for the key has seen no window yet.
	test('a rate-limited read waits out the service\'s short wait and then answers', async () => {
		q.sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 2 });
		const started = Date.now();
		const routines = await callTool(liveClient, 'list_routines', { limit: 2 });
		expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
		expect(routines.isError).toBe(false);
		expect(routines.json).toHaveLength(2);
	});

	test('a read answers with the service\'s records, and a worker runs the recorded execution with the tool\'s run', async () => {
		const before = (await finishedExecutions(dry.id, 0)).length;
		const [lead] = q.sandbox.control.leads();
		const found = await callTool(client, 'search_leads', { search: lead.emails[0].value, limit: 5 });
		expect(found.isError).toBe(false);
		expect(found.json).toEqual([expect.objectContaining({ id: lead.id, name: lead.name })]);
		const executions = await finishedExecutions(dry.id, before + 1);
		expect(executions.length).toBe(before + 1);
		expect(q.deployment.workersThatRan(executions[0].id)).toHaveLength(1);
		const { runData } = (await q.client.getExecution(executions[0].id)).data.resultData;
		expect(Object.keys(runData)).toEqual(expect.arrayContaining(['MCP Server Trigger', 'search_leads']));
	});

	test('a write on Dry Run answers with the request it would send; without Dry Run it writes', async () => {
		const shown = await callTool(client, 'create_lead', { name: 'Dora Queue', company: '', email: 'dora.queue@example.com', phone: '' });
		expect(shown.json).toEqual([expect.objectContaining({ dryRun: true, written: false, request: expect.objectContaining({ method: 'POST', path: '/leads' }) })]);
		expect(writes()).toEqual([]);
		expect(leadsWithEmail('dora.queue@example.com')).toEqual([]);

		const created = await callTool(liveClient, 'create_lead', { name: 'Dora Queue', company: '', email: 'dora.queue@example.com', phone: '' });
		expect(created.isError).toBe(false);
		// Sent once: the execution that records the call does not send it again.
		expect(writes()).toHaveLength(1);
		const [lead] = leadsWithEmail('dora.queue@example.com');
		expect(created.json).toEqual([expect.objectContaining({ id: lead.id, name: 'Dora Queue' })]);
	});

	test('a bad argument and a refusal by the service answer as tool errors with the field and the service\'s Portuguese message', async () => {
		const status = await callTool(client, 'list_prospections', { status: 'DONE', limit: 5 });
		expect(status.isError).toBe(true);
		expect(status.text).toMatch(/filters\.status/);
		const refused = await callTool(liveClient, 'create_lead', { name: 'Caio Queue', company: '', email: '', phone: '1234567' });
		expect(refused.isError).toBe(true);
		expect(refused.text).toContain('phones[0].value');
		expect(refused.text).toContain('Telefone inválido');
		const after = await callTool(client, 'funnel_conversion_rate', {});
		expect(after.isError).toBe(false);
		expect(after.json).toEqual([expect.objectContaining({ conversionRate: expect.any(Number) })]);
	});

	test('a rate limit longer than Max Rate Limit Wait answers as a tool error with the service\'s message, without waiting it out', async () => {
		q.sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 60 });
		const routineStatuses = () =>
			q.sandbox.control
				.requests()
				.filter((request) => request.path.endsWith('/routines'))
				.map((request) => request.status);
		const before = routineStatuses().length;
		const limited = await callTool(liveClient, 'list_routines', { limit: 2 });
		// Refused once and not sent again: the answer came without sitting out the minute.
		expect(routineStatuses().slice(before)).toEqual([429]);
		expect(limited.isError).toBe(true);
		expect(limited.text).toMatch(/Limite de requisições excedido/);
		expect(limited.text).toMatch(/Max Rate Limit Wait/);
	});

	test('the API key appears in no execution and no process\'s log', async () => {
		const key = q.sandbox.apiKey;
		for (const workflow of [dry, live]) {
			for (const { id } of await q.client.listExecutions(workflow.id)) {
				expect((await q.client.getExecution(id)).rawData.includes(key)).toBe(false);
			}
		}
		const { main, webhook, workers } = q.deployment;
		for (const instance of [main, webhook, ...workers]) expect(instance.output().includes(key)).toBe(false);
	});
});
