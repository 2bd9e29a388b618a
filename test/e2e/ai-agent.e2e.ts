/**
 * n8n's AI Agent drives the package's operations as tools, in a real n8n: the example workflow
 * examples/ai-agent/prospecting-agent.json (Webhook with Header Auth → AI Agent ← OpenAI Chat Model, with Lead Get
 * Many, Lead Create, Routine Add Lead and Prospection Get Conversion Rate as tools) runs against a scripted
 * OpenAI-compatible model on loopback, which calls the tools with arguments it fills from the prompt and from earlier
 * tool results. A call without the header reaches neither the model nor the service.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { ExecutionDetail, StoredWorkflow, WorkflowJson } from '../../scripts/lib/n8n-client';
import {
	AGENT_HEADER_NAME,
	demoConversations,
	ensureAgentHeaderCredential,
	newAgentKey,
	withAgentHeaderCredential,
} from '../../scripts/lib/demo-agent';
import { bindWorkflow, webhookUrl } from '../../scripts/lib/instance-setup';
import { repoRoot } from '../../scripts/lib/provision';
import { startE2eInstance, type E2eInstance } from './support/instance';
import { runByWebhook } from './support/webhook-runs';
import { startScriptedModel, type OfferedTool, type ScriptedModel, type ToolResult } from '../../scripts/lib/scripted-model';

jest.setTimeout(180_000);

const EXAMPLE = path.join(repoRoot, 'examples', 'ai-agent', 'prospecting-agent.json');
const TOOL_NAMES = ['Lead_Create', 'Lead_Get_Many', 'Prospection_Get_Conversion_Rate', 'Routine_Add_Lead'];

let e2e: E2eInstance;
let model: ScriptedModel;
let workflow: StoredWorkflow;
let agentHeader: { id: string; name: string };
const agentKey = newAgentKey();

beforeAll(async () => {
	model = await startScriptedModel();
	e2e = await startE2eInstance();
	const openAi = await e2e.client.createCredential('OpenAI (scripted model)', 'openAiApi', {
		apiKey: 'sk-scripted-model-on-loopback',
		url: model.url,
		header: false,
	});
	agentHeader = await ensureAgentHeaderCredential(e2e.client, agentKey);
	const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as WorkflowJson;
	const bound = withAgentHeaderCredential(bindWorkflow(example, { credential: e2e.credential }), agentHeader);
	for (const node of bound.nodes) {
		if (node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi') {
			node.credentials = { openAiApi: { id: openAi.id, name: openAi.name } };
		}
		if (node.type === 'n8n-nodes-base.webhook') node.parameters = { ...node.parameters, path: `agent-${randomUUID()}` };
	}
	workflow = await createActive(bound);
}, 300_000);

/**
 * Creates and activates a workflow: n8n 2.x publishes a version; n8n 1.x stores `active` on the workflow itself
 * (the column may not be left out when it is created) and activates it some seconds after it answers.
 */
async function createActive(json: WorkflowJson): Promise<StoredWorkflow> {
	if (!e2e.runtime.n8nVersion.startsWith('1.')) {
		const stored = await e2e.client.createWorkflow(json);
		await e2e.client.activateWorkflow(stored.id, stored.versionId);
		return stored;
	}
	const fresh: Record<string, unknown> = { ...json };
	delete fresh.id;
	const stored = await e2e.client.request<StoredWorkflow>('POST', '/rest/workflows', { settings: {}, ...fresh, active: false });
	await e2e.client.request('PATCH', `/rest/workflows/${stored.id}`, { active: true, versionId: stored.versionId });
	await new Promise((resolve) => setTimeout(resolve, 3000));
	return stored;
}

afterAll(async () => {
	await e2e?.stop();
	await model?.stop();
});

/** Asks the agent through the workflow's Webhook; returns its answer and the finished execution. */
async function ask(
	prompt: string,
	target: StoredWorkflow = workflow,
): Promise<{ output: string; steps: unknown[]; execution: ExecutionDetail }> {
	const { response, execution } = await runByWebhook({ client: e2e.client, webhookBaseUrl: e2e.n8n.url }, target, {
		nodeName: 'Ask the agent',
		body: { prompt },
		headers: { [AGENT_HEADER_NAME]: agentKey },
	});
	const body = response as { output?: string; intermediateSteps?: unknown[] };
	return { output: String(body.output ?? ''), steps: body.intermediateSteps ?? [], execution };
}

async function api<T>(pathAndQuery: string): Promise<T> {
	const separator = pathAndQuery.includes('?') ? '&' : '?';
	const response = await fetch(`${e2e.sandbox.url}/api/v1${pathAndQuery}${separator}apiKey=${e2e.sandbox.apiKey}`);
	expect(response.status).toBe(200);
	return (await response.json()) as T;
}

/** The records in a tool's answer (n8n sends the tool's items as JSON text). */
function records(result: ToolResult | undefined): Array<Record<string, unknown>> {
	if (!result) return [];
	// An empty list reaches the model as "" (no items).
	const parsed = JSON.parse(result.output) as unknown;
	const list = (Array.isArray(parsed) ? parsed : [parsed]).filter((entry) => entry && typeof entry === 'object');
	return list.flatMap((entry) => {
		if (entry && typeof entry === 'object' && 'response' in entry && Array.isArray((entry as { response: unknown }).response)) {
			return (entry as { response: Array<Record<string, unknown>> }).response;
		}
		return [entry as Record<string, unknown>];
	});
}

function lastResult(results: ToolResult[], name: string): ToolResult | undefined {
	return [...results].reverse().find((result) => result.name === name);
}

describe('n8n AI Agent with the Prospecting tools', () => {
	test('a call without the Header Auth header, or with another key, is refused with 403 and reaches neither the model nor the service', async () => {
		const modelCalls = model.requests.length;
		const serviceCalls = e2e.sandbox.control.requests().length;
		const executions = (await e2e.client.listExecutions(workflow.id)).length;
		const url = webhookUrl(e2e.n8n.url, workflow, 'Ask the agent');
		const refused: Array<Record<string, string>> = [{}, { [AGENT_HEADER_NAME]: newAgentKey() }];
		for (const headers of refused) {
			const response = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: JSON.stringify({ prompt: 'List every lead with its e-mail and phone.' }),
			});
			expect(response.status).toBe(403);
			expect(await response.text()).not.toMatch(/lead_|@/);
		}
		expect(model.requests.length).toBe(modelCalls);
		expect(e2e.sandbox.control.requests().length).toBe(serviceCalls);
		expect((await e2e.client.listExecutions(workflow.id)).length).toBe(executions);
	});

	test('creates a lead it did not find, then adds it to the routine: the sandbox holds it once, in the routine', async () => {
		const routine = e2e.sandbox.control.routines()[0];
		const email = `agent.${Date.now()}@example.com`;
		model.script([
			{
				prompt: 'Register Beatriz',
				turns: [
					() => ({ toolCalls: [{ name: 'Lead_Get_Many', args: { search: email, limit: 5 } }] }),
					({ results }) =>
						records(lastResult(results, 'Lead_Get_Many')).length > 0
							? { answer: 'The lead already exists.' }
							: {
									toolCalls: [
										{
											name: 'Lead_Create',
											args: { name: 'Beatriz Lima', company: 'Lima & Filhos', email, phone: '' },
										},
									],
								},
					({ results }) => {
						const created = records(lastResult(results, 'Lead_Create'))[0];
						return {
							toolCalls: [{ name: 'Routine_Add_Lead', args: { routineId: routine.id, leadId: String(created?.id) } }],
						};
					},
					({ results }) => {
						const created = records(lastResult(results, 'Lead_Create'))[0];
						const added = lastResult(results, 'Routine_Add_Lead');
						return { answer: `Created lead ${String(created?.id)} and added it to routine ${routine.id}: ${added?.output}` };
					},
				],
			},
		]);
		const first = model.requests.length;

		const { output } = await ask(`Register Beatriz Lima from Lima & Filhos, ${email}, and add her to routine ${routine.id}.`);

		const leads = await api<{ data: Array<{ id: string; name: string; emails: Array<{ value: string }> }>; meta: { total: number } }>(
			`/leads?search=${encodeURIComponent(email)}`,
		);
		expect(leads.meta.total).toBe(1);
		const lead = leads.data[0];
		expect(lead.name).toBe('Beatriz Lima');
		const inRoutine = await api<{ data: Array<{ id: string }> }>(
			`/leads?search=${encodeURIComponent(email)}&routineIds=${routine.id}`,
		);
		expect(inRoutine.data.map((l) => l.id)).toEqual([lead.id]);
		expect(output).toContain(`Created lead ${lead.id} and added it to routine ${routine.id}`);

		// Four model calls: search, create, add, answer; the tools got the arguments the model filled.
		const calls = model.requests.slice(first);
		expect(calls).toHaveLength(4);
		const seen = (model.requests.at(-1)?.body ?? {}) as Record<string, unknown>;
		expect(JSON.stringify(seen)).toContain(lead.id);
	});

	test('a list reaches the agent compact: contacts as plain values, empty fields left out', async () => {
		const email = `compact.${Date.now()}@example.com`;
		const created = await fetch(`${e2e.sandbox.url}/api/v1/leads?apiKey=${e2e.sandbox.apiKey}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'Davi Rocha', company: '', emails: [{ value: email, label: 'Principal' }] }),
		});
		expect(created.status).toBeLessThan(300);
		let found: Array<Record<string, unknown>> = [];
		model.script([
			{
				prompt: 'Find Davi',
				turns: [
					() => ({ toolCalls: [{ name: 'Lead_Get_Many', args: { search: email, limit: 10 } }] }),
					({ results }) => {
						found = records(lastResult(results, 'Lead_Get_Many'));
						return { answer: `Found ${found.length} lead(s): ${found.map((lead) => String(lead.id)).join(', ')}` };
					},
				],
			},
		]);

		const { output } = await ask(`Find Davi, ${email}.`);

		expect(found).toHaveLength(1);
		expect(found[0]).toMatchObject({ name: 'Davi Rocha', emails: [email] });
		expect(found[0]).not.toHaveProperty('phones');
		expect(found[0]).not.toHaveProperty('company');
		expect(output).toBe(`Found 1 lead(s): ${String(found[0].id)}`);
	});

	test('the model is offered the four tools, with their descriptions and the parameters their $fromAI fill', () => {
		const request = model.requests[0];
		expect(request).toBeDefined();
		const tools = Object.fromEntries(model.toolsOf(request).map((tool) => [tool.name, tool])) as Record<string, OfferedTool>;
		expect(Object.keys(tools).sort()).toEqual(TOOL_NAMES);

		expect(tools.Lead_Get_Many.description).toBe(
			'Get many leads whose name or company or email or phone match a search text and return their ID and contacts in Prospecting',
		);
		expect(tools.Lead_Create.description).toBe(
			'Create a lead from a name and company with at least one email or phone and return the new lead with its ID in Prospecting',
		);
		expect(tools.Routine_Add_Lead.description).toBe(
			'Add a lead to a routine by lead ID and routine ID which can start prospecting the lead in Prospecting',
		);
		expect(tools.Prospection_Get_Conversion_Rate.description).toBe(
			'Get the conversion rate of prospections as won divided by won plus lost with both counts in Prospecting',
		);

		const props = (tool: OfferedTool) => Object.keys(tool.parameters.properties ?? {}).sort();
		expect(props(tools.Lead_Get_Many)).toEqual(['limit', 'search']);
		expect(tools.Lead_Get_Many.parameters.properties?.limit.type).toBe('number');
		expect(tools.Lead_Get_Many.parameters.properties?.search).toMatchObject({
			type: 'string',
			description: 'Text to look for in the name, company, e-mail or phone of the lead',
		});
		expect(props(tools.Lead_Create)).toEqual(['company', 'email', 'name', 'phone']);
		expect(tools.Lead_Create.parameters.properties?.email.description).toContain('E-mail address of the lead');
		expect(props(tools.Routine_Add_Lead)).toEqual(['leadId', 'routineId']);
		expect(tools.Routine_Add_Lead.parameters.properties?.routineId).toMatchObject({ type: 'string' });
		expect(props(tools.Prospection_Get_Conversion_Rate)).toEqual([]);
	});

	test('answers a funnel question with the conversion rate the sandbox holds', async () => {
		model.script([
			{
				prompt: 'How is the funnel',
				turns: [
					() => ({ toolCalls: [{ name: 'Prospection_Get_Conversion_Rate', args: {} }] }),
					({ results }) => {
						const rate = records(lastResult(results, 'Prospection_Get_Conversion_Rate'))[0] ?? {};
						return {
							answer: `Conversion rate ${(Number(rate.conversionRate) * 100).toFixed(2)}% (${String(rate.won)} won, ${String(rate.lost)} lost)`,
						};
					},
				],
			},
		]);

		const { output } = await ask('How is the funnel this month?');

		const won = (await api<{ meta: { total: number } }>('/prospections?status=WON&limit=1')).meta.total;
		const lost = (await api<{ meta: { total: number } }>('/prospections?status=LOST&limit=1')).meta.total;
		expect(won + lost).toBeGreaterThan(0);
		expect(output).toBe(`Conversion rate ${((won / (won + lost)) * 100).toFixed(2)}% (${won} won, ${lost} lost)`);
	});

	test('the same funnel question through the Chat Completions API (Use Responses API off)', async () => {
		const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as WorkflowJson;
		const chat = withAgentHeaderCredential(
			bindWorkflow({ ...example, name: `${example.name} (chat completions)` }, { credential: e2e.credential }),
			agentHeader,
		);
		const openAi = workflow.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi')!;
		for (const node of chat.nodes) {
			if (node.type === openAi.type) {
				node.credentials = openAi.credentials;
				node.parameters = { ...node.parameters, responsesApiEnabled: false };
			}
			if (node.type === 'n8n-nodes-base.webhook') node.parameters = { ...node.parameters, path: `agent-${randomUUID()}` };
		}
		const stored = await createActive(chat);
		model.script([
			{
				prompt: 'Funnel please',
				turns: [
					() => ({ toolCalls: [{ name: 'Prospection_Get_Conversion_Rate', args: {} }] }),
					({ results }) => ({
						answer: `Rate ${String(records(lastResult(results, 'Prospection_Get_Conversion_Rate'))[0]?.conversionRate)}`,
					}),
				],
			},
		]);
		const first = model.requests.length;

		const { output } = await ask('Funnel please.', stored);

		const won = (await api<{ meta: { total: number } }>('/prospections?status=WON&limit=1')).meta.total;
		const lost = (await api<{ meta: { total: number } }>('/prospections?status=LOST&limit=1')).meta.total;
		expect(output).toBe(`Rate ${won / (won + lost)}`);
		const calls = model.requests.slice(first);
		expect(calls.map((call) => call.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
		expect(model.toolsOf(calls[0]).map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
	});

	test('a bad argument: the agent receives the service message and the field, and the run completes', async () => {
		let seenError = '';
		model.script([
			{
				prompt: 'Register Caio',
				turns: [
					() => ({
						toolCalls: [{ name: 'Lead_Create', args: { name: 'Caio Prado', company: '', email: '', phone: '1234567' } }],
					}),
					({ results }) => {
						seenError = lastResult(results, 'Lead_Create')?.output ?? '';
						return { answer: `The service refused the lead: ${seenError}` };
					},
				],
			},
		]);
		const before = (await api<{ meta: { total: number } }>('/leads?search=Caio%20Prado&limit=1')).meta.total;

		const { output, execution } = await ask('Register Caio Prado, phone 12.');

		// The service's Portuguese message and the field it named reached the model as the tool's answer.
		expect(seenError).toContain('phones[0].value');
		expect(seenError).toContain('Telefone inválido');
		expect(output).toContain('Telefone inválido');
		expect(execution.status).toBe('success');
		// Nothing was created.
		expect((await api<{ meta: { total: number } }>('/leads?search=Caio%20Prado&limit=1')).meta.total).toBe(before);
		// The API key never reaches the model.
		expect(JSON.stringify(model.requests)).not.toContain(e2e.sandbox.apiKey);
	});

	test("the demo's scripted model (npm run demo) answers the example's requests", async () => {
		model.script(demoConversations());
		const routine = e2e.sandbox.control.routines()[1];
		const email = `demo.${Date.now()}@example.com`;

		const funnel = await ask('How is the funnel?');
		expect(funnel.output).toMatch(/^The conversion rate is \d+\.\d%: \d+ won and \d+ lost prospections\.$/);

		const added = await ask(`Add Ana Lima, ${email} to routine ${routine.id}`);
		const leads = await api<{ data: Array<{ id: string }>; meta: { total: number } }>(
			`/leads?search=${encodeURIComponent(email)}&routineIds=${routine.id}`,
		);
		expect(leads.meta.total).toBe(1);
		expect(added.output).toBe(`Created the lead and added ${leads.data[0].id} to routine ${routine.id}.`);

		const again = await ask(`Add Ana Lima, ${email} to routine ${routine.id}`);
		expect(again.output).toBe(`Added the existing lead ${leads.data[0].id} to routine ${routine.id}.`);
		expect((await api<{ meta: { total: number } }>(`/leads?search=${encodeURIComponent(email)}`)).meta.total).toBe(1);
	});
});
