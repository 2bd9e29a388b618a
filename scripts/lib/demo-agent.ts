/**
 * The AI agent example (examples/ai-agent/) offline: a scripted OpenAI-compatible model on loopback that answers
 * the example's AI Agent the way a model would for three kinds of request, and the OpenAI credential pointing at
 * it. A real model is one credential away: see docs/ai-and-mcp.md, "A tool in n8n's AI Agent". Its Webhook answers only
 * callers that send the Header Auth credential's header (a random key, new on every start).
 */
import { randomBytes } from 'node:crypto';

import type { N8nClient, WorkflowJson } from './n8n-client';
import type { Conversation, ToolResult } from './scripted-model';

export const AGENT_EXAMPLE_DIR = 'examples/ai-agent';
export const SCRIPTED_CREDENTIAL_NAME = 'OpenAI (scripted model on loopback)';
/** n8n's own Header Auth credential, which the example's Webhook checks on every call. */
export const AGENT_HEADER_CREDENTIAL_TYPE = 'httpHeaderAuth';
export const AGENT_HEADER_CREDENTIAL_NAME = 'Agent Header Auth';
export const AGENT_HEADER_NAME = 'X-Agent-Key';

/** The records in a tool's answer (n8n sends a tool's items as JSON text; no items as ""). */
export function toolRecords(result: ToolResult | undefined): Array<Record<string, unknown>> {
	if (!result) return [];
	let parsed: unknown;
	try {
		parsed = JSON.parse(result.output);
	} catch {
		return [];
	}
	const list = Array.isArray(parsed) ? parsed : [parsed];
	return list.filter((entry): entry is Record<string, unknown> => !!entry && typeof entry === 'object');
}

const last = (results: ToolResult[], name: string) => [...results].reverse().find((r) => r.name === name);
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;

/**
 * Understands: a funnel question ("funnel", "conversion"); "add NAME, EMAIL to routine ID" (searches the lead by
 * e-mail, creates it when missing, adds it to the routine); "find EMAIL-or-text".
 */
export function demoConversations(): Conversation[] {
	return [
		{
			prompt: '',
			turns: [
				({ prompt }) => {
					if (/funnel|conversion|convers[ãa]o/i.test(prompt)) {
						return { toolCalls: [{ name: 'Prospection_Get_Conversion_Rate', args: {} }] };
					}
					const search = prompt.match(EMAIL)?.[0] ?? prompt.replace(/^\s*(find|search|look up)\s+/i, '').trim();
					return { toolCalls: [{ name: 'Lead_Get_Many', args: { search, limit: 5 } }] };
				},
				({ prompt, results }) => {
					const rate = toolRecords(last(results, 'Prospection_Get_Conversion_Rate'))[0];
					if (rate) {
						return {
							answer: `The conversion rate is ${(Number(rate.conversionRate) * 100).toFixed(1)}%: ${String(rate.won)} won and ${String(rate.lost)} lost prospections.`,
						};
					}
					const found = toolRecords(last(results, 'Lead_Get_Many'));
					const routineId = prompt.match(/routine\s+(\S+?)[.,;]?(\s|$)/i)?.[1];
					const email = prompt.match(EMAIL)?.[0];
					if (!routineId || !email) {
						return {
							answer: found.length
								? `Found ${found.length} lead(s): ${found.map((lead) => `${String(lead.name)} (${String(lead.id)})`).join(', ')}.`
								: 'No lead matches.',
						};
					}
					if (found[0]) {
						return { toolCalls: [{ name: 'Routine_Add_Lead', args: { routineId, leadId: String(found[0].id) } }] };
					}
					const name = prompt.match(/(?:add|register)\s+([^,]+?)\s*,/i)?.[1] ?? email;
					return { toolCalls: [{ name: 'Lead_Create', args: { name, company: '', email, phone: '' } }] };
				},
				({ prompt, results }) => {
					const routineId = prompt.match(/routine\s+(\S+?)[.,;]?(\s|$)/i)?.[1] ?? '';
					const created = toolRecords(last(results, 'Lead_Create'))[0];
					if (last(results, 'Lead_Create') && !created) {
						return { answer: `The lead could not be created: ${last(results, 'Lead_Create')?.output}` };
					}
					if (created && !last(results, 'Routine_Add_Lead')) {
						return { toolCalls: [{ name: 'Routine_Add_Lead', args: { routineId, leadId: String(created.id) } }] };
					}
					return { answer: answerAfterAdd(results, routineId) };
				},
				({ prompt, results }) => ({
					answer: answerAfterAdd(results, prompt.match(/routine\s+(\S+?)[.,;]?(\s|$)/i)?.[1] ?? ''),
				}),
			],
		},
	];
}

function answerAfterAdd(results: ToolResult[], routineId: string): string {
	const added = last(results, 'Routine_Add_Lead');
	const record = toolRecords(added)[0];
	if (!record) return `The lead could not be added to routine ${routineId}: ${added?.output ?? 'no answer'}`;
	const created = last(results, 'Lead_Create') ? 'Created the lead and added' : 'Added the existing lead';
	return `${created} ${String(record.leadId ?? '')} to routine ${routineId}.`;
}

/** Creates (or reuses) the OpenAI credential pointing at the scripted model. */
export async function ensureScriptedModelCredential(
	client: N8nClient,
	modelUrl: string,
): Promise<{ id: string; name: string; type: string }> {
	const data = { apiKey: 'sk-scripted-model-on-loopback', url: modelUrl, header: false };
	const existing = (await client.listCredentials()).find(
		(credential) => credential.name === SCRIPTED_CREDENTIAL_NAME && credential.type === 'openAiApi',
	);
	if (existing) {
		await client.updateCredential(existing.id, existing.name, existing.type, data);
		return existing;
	}
	return await client.createCredential(SCRIPTED_CREDENTIAL_NAME, 'openAiApi', data);
}

/** The example bound to the OpenAI credential (the Prospecting credential is bound by importWorkflows). */
export function withOpenAiCredential(workflow: WorkflowJson, credential: { id: string; name: string }): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(workflow)) as WorkflowJson;
	for (const node of copy.nodes) {
		const credentials = node.credentials as Record<string, unknown> | undefined;
		if (credentials?.openAiApi) credentials.openAiApi = { id: credential.id, name: credential.name };
	}
	return copy;
}

/** A new random key for the agent's Header Auth: 32 random bytes, base64url (43 characters). */
export function newAgentKey(): string {
	return randomBytes(32).toString('base64url');
}

/** Creates the Header Auth credential, or gives the existing one (same name) this key. */
export async function ensureAgentHeaderCredential(
	client: N8nClient,
	key: string,
	name = AGENT_HEADER_CREDENTIAL_NAME,
): Promise<{ id: string; name: string }> {
	const data = { name: AGENT_HEADER_NAME, value: key };
	const existing = (await client.listCredentials()).find((c) => c.name === name && c.type === AGENT_HEADER_CREDENTIAL_TYPE);
	if (existing) {
		await client.updateCredential(existing.id, name, AGENT_HEADER_CREDENTIAL_TYPE, data);
		return existing;
	}
	return await client.createCredential(name, AGENT_HEADER_CREDENTIAL_TYPE, data);
}

/** A copy of the workflow whose Header Auth webhooks use this credential. */
export function withAgentHeaderCredential(workflow: WorkflowJson, credential: { id: string; name: string }): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(workflow)) as WorkflowJson;
	for (const node of copy.nodes) {
		const credentials = node.credentials as Record<string, unknown> | undefined;
		if (credentials?.[AGENT_HEADER_CREDENTIAL_TYPE]) credentials[AGENT_HEADER_CREDENTIAL_TYPE] = { id: credential.id, name: credential.name };
	}
	return copy;
}
