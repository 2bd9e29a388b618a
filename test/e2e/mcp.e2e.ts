/**
 * Any AI assistant uses the Prospecting operations as tools through n8n's MCP Server Trigger: the example workflow
 * examples/mcp/prospecting-mcp-server.json, active in a real n8n, answers the official MCP client
 * (@modelcontextprotocol/sdk) over Streamable HTTP and SSE, with the Bearer token the example's trigger checks. Tool
 * calls run as production executions: the example's writes are on Dry Run; a "live" copy (Dry Run on "Use Credential
 * Setting") writes for real.
 */
import { readFileSync } from 'node:fs';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import type { StoredWorkflow } from '../../scripts/lib/n8n-client';
import { startE2eInstance, type E2eInstance } from './support/instance';
import { callTool, connectMcp, initializeStatus, MCP_TOOL_NAMES, openMcpExamples, type McpExamples } from './support/mcp';

jest.setTimeout(180_000);

/** Statuses of the service's answers to the routine list, in order (the rate-limit cases read them). */
const routineStatuses = () =>
	e2e.sandbox.control
		.requests()
		.filter((request) => request.path.endsWith('/routines'))
		.map((request) => request.status);

let e2e: E2eInstance;
let mcp: McpExamples | undefined;
let dry: StoredWorkflow;
let live: StoredWorkflow;
let client: Client;
let liveClient: Client;
const answers: string[] = [];

beforeAll(async () => {
	e2e = await startE2eInstance();
	mcp = await openMcpExamples(e2e.client, e2e.runtime.n8nVersion, e2e.credential, e2e.n8n.url);
	({ dry, live, client, liveClient } = mcp);
}, 300_000);

afterAll(async () => {
	await mcp?.close();
	await e2e?.stop();
});

beforeEach(() => {
	e2e.sandbox.control.clearFaults();
});

async function call(target: Client, name: string, args: Record<string, unknown>) {
	const answer = await callTool(target, name, args);
	answers.push(answer.text);
	return answer;
}

const writes = () => e2e.sandbox.control.requests().filter((request) => request.kind === 'write');
const leadsWithEmail = (email: string) =>
	e2e.sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));

describe('the example MCP server in n8n, called by the official MCP client', () => {
	it('refuses a client without the Bearer token, or with a wrong one, before any tool runs', async () => {
		const before = e2e.sandbox.control.requests().length;
		expect([401, 403]).toContain(await initializeStatus(e2e.n8n.url, dry));
		expect([401, 403]).toContain(await initializeStatus(e2e.n8n.url, dry, { Authorization: 'Bearer not-the-token' }));
		await expect(connectMcp(e2e.n8n.url, dry, undefined)).rejects.toThrow();
		expect(e2e.sandbox.control.requests().length).toBe(before);
		expect(await initializeStatus(e2e.n8n.url, dry, { Authorization: `Bearer ${mcp!.token}` })).toBe(200);
	});

	it('lists the six tools with their descriptions and the arguments each one takes', async () => {
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOL_NAMES);
		const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
		const args = (name: string) => Object.keys(byName[name].inputSchema.properties ?? {}).sort();
		expect(args('search_leads')).toEqual(['limit', 'search']);
		expect(args('create_lead')).toEqual(['company', 'email', 'name', 'phone']);
		expect(args('list_routines')).toEqual(['limit']);
		expect(args('add_lead_to_routine')).toEqual(['leadId', 'routineId']);
		expect(args('list_prospections')).toEqual(['limit', 'status']);
		expect(args('funnel_conversion_rate')).toEqual([]);
		expect(byName.search_leads.inputSchema.properties?.limit).toMatchObject({ type: 'number' });
		expect(byName.create_lead.inputSchema.required).toEqual(expect.arrayContaining(['name', 'email']));
		expect(byName.create_lead.description).toMatch(/DRY RUN: this tool does not write/);
		expect(byName.add_lead_to_routine.description).toMatch(/DRY RUN: this tool does not write/);
		expect(byName.search_leads.description).not.toMatch(/DRY RUN/);
	});

	// First of the calls: the node's rate budget for the key has seen no window yet, so the service's own short wait is
	// all there is to wait (a 429 in the middle of a window makes the node wait for that window to end).
	it('waits out a short rate limit and then answers', async () => {
		e2e.sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 2 });
		const before = routineStatuses().length;
		const started = Date.now();
		const routines = await call(liveClient, 'list_routines', { limit: 2 });
		// A sleep is never shorter than asked: the second request went after the service's 2 s.
		expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
		expect(routineStatuses().slice(before)).toEqual([429, 200]);
		expect(routines.isError).toBe(false);
		expect(routines.json).toHaveLength(2);
	});

	it('answers a read with the service\'s records', async () => {
		const [lead] = e2e.sandbox.control.leads();
		const found = await call(client, 'search_leads', { search: lead.emails[0].value, limit: 5 });
		expect(found.isError).toBe(false);
		expect(found.json).toEqual([expect.objectContaining({ id: lead.id, name: lead.name })]);

		const won = await call(client, 'list_prospections', { status: 'WON', limit: 50 });
		expect(won.isError).toBe(false);
		const expected = e2e.sandbox.control.prospections().filter((p) => p.status === 'WON');
		expect((won.json as Array<{ id: string; status: string }>).map((p) => p.status)).toEqual(expected.slice(0, 50).map(() => 'WON'));

		const rate = await call(client, 'funnel_conversion_rate', {});
		const lost = e2e.sandbox.control.prospections().filter((p) => p.status === 'LOST').length;
		expect(rate.json).toEqual([{ won: expected.length, lost, decided: expected.length + lost, conversionRate: expected.length / (expected.length + lost) }]);
	});

	it('answers a write on Dry Run with the request it would send, and writes nothing', async () => {
		const before = writes().length;
		const created = await call(client, 'create_lead', { name: 'Ana MCP', company: 'Acme', email: 'ana.mcp@example.com', phone: '' });
		expect(created.isError).toBe(false);
		expect(created.json).toEqual([
			expect.objectContaining({
				dryRun: true,
				written: false,
				operation: 'Lead Create',
				message: expect.stringMatching(/^Dry run: nothing was written\. Lead Create would send POST \/leads; the node's Dry Run is "Always Dry Run"/),
				request: expect.objectContaining({ method: 'POST', path: '/leads' }),
			}),
		]);
		expect(writes().length).toBe(before);
		expect(leadsWithEmail('ana.mcp@example.com')).toEqual([]);
	});

	it('writes for real when the write tool is not on Dry Run, and skips a lead that exists', async () => {
		const args = { name: 'Bruno MCP', company: 'Acme', email: 'bruno.mcp@example.com', phone: '' };
		const created = await call(liveClient, 'create_lead', args);
		expect(created.isError).toBe(false);
		const [lead] = leadsWithEmail('bruno.mcp@example.com');
		expect(lead).toBeDefined();
		expect(created.json).toEqual([expect.objectContaining({ id: lead.id, name: 'Bruno MCP' })]);
		expect(JSON.stringify(created.json)).not.toMatch(/dryRun/);

		const again = await call(liveClient, 'create_lead', args);
		expect(again.isError).toBe(false);
		expect(leadsWithEmail('bruno.mcp@example.com')).toHaveLength(1);

		const [routine] = e2e.sandbox.control.routines();
		const added = await call(liveClient, 'add_lead_to_routine', { routineId: routine.id, leadId: lead.id });
		expect(added.isError).toBe(false);
		expect(e2e.sandbox.control.prospections().some((p) => p.leadId === lead.id && p.routineId === routine.id)).toBe(true);
	});

	it('answers a bad argument as a tool error with the field it names, and the session goes on', async () => {
		const status = await call(client, 'list_prospections', { status: 'DONE', limit: 5 });
		expect(status.isError).toBe(true);
		expect(status.text).toMatch(/filters\.status/);
		expect(status.text).toMatch(/DONE/);

		const wrongType = await call(client, 'search_leads', { search: 'Ana', limit: 'ten' });
		expect(wrongType.isError).toBe(true);
		expect(wrongType.text).toMatch(/limit/);

		const after = await call(client, 'list_routines', { limit: 1 });
		expect(after.isError).toBe(false);
		expect(after.json).toHaveLength(1);
	});

	it('answers the service\'s refusal as a tool error with its Portuguese message and the field, and the session goes on', async () => {
		const refused = await call(liveClient, 'create_lead', { name: 'Caio MCP', company: '', email: '', phone: '1234567' });
		expect(refused.isError).toBe(true);
		expect(refused.text).toContain('phones[0].value');
		expect(refused.text).toContain('Telefone inválido');
		const missing = await call(liveClient, 'add_lead_to_routine', { routineId: 'no-such-routine', leadId: 'no-such-lead' });
		expect(missing.isError).toBe(true);
		expect(missing.text).toMatch(/não encontrad/);
		const after = await call(liveClient, 'funnel_conversion_rate', {});
		expect(after.isError).toBe(false);
		expect(after.json).toEqual([expect.objectContaining({ conversionRate: expect.any(Number) })]);
	});

	it('also serves an SSE client on the same URL', async () => {
		const sse = await connectMcp(e2e.n8n.url, dry, mcp!.token, 'sse');
		try {
			const { tools } = await sse.listTools();
			expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOL_NAMES);
			const rate = await callTool(sse, 'funnel_conversion_rate', {});
			answers.push(rate.text);
			expect(rate.json).toEqual([expect.objectContaining({ conversionRate: expect.any(Number) })]);
		} finally {
			await sse.close();
		}
	});

	// Last of the calls: the node then holds the key's calls until the service's minute is over.
	it('answers a rate limit longer than Max Rate Limit Wait as a tool error with the service\'s message, without waiting it out', async () => {
		e2e.sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 60 });
		const before = routineStatuses().length;
		const limited = await call(liveClient, 'list_routines', { limit: 2 });
		// Refused once and not sent again: the answer came without sitting out the minute.
		expect(routineStatuses().slice(before)).toEqual([429]);
		expect(limited.isError).toBe(true);
		expect(limited.text).toMatch(/Limite de requisições excedido/);
		expect(limited.text).toMatch(/Max Rate Limit Wait/);
	});

	it('keeps the API key out of every tool answer, the executions and n8n\'s log', async () => {
		expect(answers.length).toBeGreaterThan(10);
		const key = e2e.sandbox.apiKey;
		for (const text of answers) expect(text.includes(key)).toBe(false);
		for (const workflow of [dry, live]) {
			const executions = await e2e.client.listExecutions(workflow.id);
			expect(executions.length).toBeGreaterThan(0);
			for (const { id } of executions) {
				const execution = await e2e.client.getExecution(id);
				expect(execution.rawData.includes(key)).toBe(false);
			}
		}
		expect(readFileSync(e2e.logFile, 'utf8').includes(key)).toBe(false);
	});
});
