/** The MCP example ships behind Bearer auth, and the demo binds it to a credential with a random token. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { WorkflowJson } from '../../scripts/lib/n8n-client';
import { MCP_EXAMPLE, newMcpToken, withMcpBearerCredential } from '../../scripts/lib/demo-mcp';

const example = JSON.parse(readFileSync(path.join(__dirname, '..', '..', MCP_EXAMPLE), 'utf8')) as WorkflowJson;
const triggerOf = (workflow: WorkflowJson) =>
	workflow.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;

it('the example MCP Server Trigger requires a Bearer token from the "MCP Bearer Token" credential', () => {
	const trigger = triggerOf(example);
	expect(trigger.parameters?.authentication).toBe('bearerAuth');
	expect(trigger.credentials).toEqual({ httpBearerAuth: { id: '', name: 'MCP Bearer Token' } });
});

it('every token is new: 32 random bytes as base64url', () => {
	const tokens = Array.from({ length: 50 }, () => newMcpToken());
	for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
	expect(new Set(tokens).size).toBe(50);
});

it('binds the trigger to the demo\'s credential and leaves the other nodes as they are', () => {
	const bound = withMcpBearerCredential(example, { id: '42', name: 'MCP Bearer Token' });
	expect(triggerOf(bound).credentials).toEqual({ httpBearerAuth: { id: '42', name: 'MCP Bearer Token' } });
	expect(triggerOf(bound).parameters?.authentication).toBe('bearerAuth');
	const others = (workflow: WorkflowJson) => workflow.nodes.filter((node) => node !== triggerOf(workflow));
	expect(others(bound)).toEqual(others(example));
	// The file's own copy is untouched.
	expect(triggerOf(example).credentials).toEqual({ httpBearerAuth: { id: '', name: 'MCP Bearer Token' } });
});
