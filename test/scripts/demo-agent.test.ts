/** The AI agent example ships behind Header Auth, and the demo binds it to a credential with a random key. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { WorkflowJson } from '../../scripts/lib/n8n-client';
import { AGENT_EXAMPLE_DIR, AGENT_HEADER_CREDENTIAL_NAME, newAgentKey, withAgentHeaderCredential } from '../../scripts/lib/demo-agent';

const example = JSON.parse(
	readFileSync(path.join(__dirname, '..', '..', AGENT_EXAMPLE_DIR, 'prospecting-agent.json'), 'utf8'),
) as WorkflowJson;
const webhookOf = (workflow: WorkflowJson) => workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook')!;

it('the example agent\'s Webhook requires the header of the "Agent Header Auth" credential', () => {
	const webhook = webhookOf(example);
	expect(webhook.parameters?.authentication).toBe('headerAuth');
	expect(webhook.credentials).toEqual({ httpHeaderAuth: { id: '', name: AGENT_HEADER_CREDENTIAL_NAME } });
});

it('every key is new: 32 random bytes as base64url', () => {
	const keys = Array.from({ length: 50 }, () => newAgentKey());
	for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
	expect(new Set(keys).size).toBe(50);
});

it("binds the Webhook to the demo's credential and leaves the other nodes as they are", () => {
	const bound = withAgentHeaderCredential(example, { id: '42', name: AGENT_HEADER_CREDENTIAL_NAME });
	expect(webhookOf(bound).credentials).toEqual({ httpHeaderAuth: { id: '42', name: AGENT_HEADER_CREDENTIAL_NAME } });
	const others = (workflow: WorkflowJson) => workflow.nodes.filter((node) => node !== webhookOf(workflow));
	expect(others(bound)).toEqual(others(example));
	// The file's own copy is untouched.
	expect(webhookOf(example).credentials).toEqual({ httpHeaderAuth: { id: '', name: AGENT_HEADER_CREDENTIAL_NAME } });
});
