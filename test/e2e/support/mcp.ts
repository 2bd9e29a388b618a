/**
 * The example MCP server workflow (examples/mcp/prospecting-mcp-server.json) in a real n8n, behind the Bearer auth it
 * ships with, and the official MCP client (@modelcontextprotocol/sdk) connected to it with the token, as an assistant
 * connects to the MCP Server Trigger's URL.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import type { N8nClient, StoredWorkflow, WorkflowJson } from '../../../scripts/lib/n8n-client';
import { bindWorkflow } from '../../../scripts/lib/instance-setup';
import {
	ensureMcpBearerCredential,
	mcpServerUrl,
	MCP_EXAMPLE,
	newMcpToken,
	withMcpBearerCredential,
} from '../../../scripts/lib/demo-mcp';
import { repoRoot } from '../../../scripts/lib/provision';

export const MCP_TOOL_NAMES = [
	'add_lead_to_routine',
	'create_lead',
	'funnel_conversion_rate',
	'list_prospections',
	'list_routines',
	'search_leads',
];

type Node = WorkflowJson['nodes'][number];

/**
 * The example bound to the credential, on a path of its own. `live` turns the writes' Dry Run to "Use Credential
 * Setting" (an active workflow sends) and takes the dry-run sentence out of their descriptions, as a user does when
 * the assistant may write; `change` edits any node further.
 */
export function mcpExample(
	credential: { id: string; name: string },
	bearer: { id: string; name: string },
	options: { live?: boolean; change?: (node: Node) => void } = {},
): WorkflowJson {
	const example = JSON.parse(readFileSync(path.join(repoRoot, MCP_EXAMPLE), 'utf8')) as WorkflowJson;
	const bound = withMcpBearerCredential(bindWorkflow(example, { credential }), bearer);
	bound.name = `${bound.name} ${options.live ? 'live' : 'dry'} ${randomUUID().slice(0, 8)}`;
	for (const node of bound.nodes) {
		const parameters = node.parameters as Record<string, unknown>;
		if (node.type === '@n8n/n8n-nodes-langchain.mcpTrigger') {
			parameters.path = `prospecting-${randomUUID()}`;
			node.webhookId = randomUUID();
		}
		if (options.live && parameters.dryRun === 'always') {
			parameters.dryRun = 'credential';
			parameters.toolDescription = String(parameters.toolDescription).replace(/ DRY RUN:.*$/, '');
		}
		options.change?.(node);
	}
	return bound;
}

/**
 * Creates and activates a workflow: n8n 2.x publishes a version; n8n 1.x stores `active` on the workflow itself
 * (the column may not be left out when it is created) and activates it some seconds after it answers.
 */
export async function createActiveWorkflow(client: N8nClient, n8nVersion: string, json: WorkflowJson): Promise<StoredWorkflow> {
	if (!n8nVersion.startsWith('1.')) {
		const stored = await client.createWorkflow(json);
		await client.activateWorkflow(stored.id, stored.versionId);
		return stored;
	}
	const fresh: Record<string, unknown> = { ...json };
	delete fresh.id;
	const stored = await client.request<StoredWorkflow>('POST', '/rest/workflows', { settings: {}, ...fresh, active: false });
	await client.request('PATCH', `/rest/workflows/${stored.id}`, { active: true, versionId: stored.versionId });
	await new Promise((resolve) => setTimeout(resolve, 3000));
	return stored;
}

export type McpTransport = 'streamable-http' | 'sse';

/**
 * An MCP client session with the workflow's MCP Server Trigger (production URL) over the given transport, sending
 * `token` as `Authorization: Bearer <token>` on every request (the SSE stream's GET included).
 */
export async function connectMcp(
	n8nUrl: string,
	workflow: WorkflowJson,
	token: string | undefined,
	transport: McpTransport = 'streamable-http',
): Promise<Client> {
	const url = new URL(mcpServerUrl(n8nUrl, workflow));
	const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
	const client = new Client({ name: 'prospecting-e2e', version: '1.0.0' });
	await client.connect(
		transport === 'sse'
			? new SSEClientTransport(url, {
					requestInit: { headers },
					eventSourceInit: {
						fetch: async (input, init) =>
							await fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
					},
				})
			: new StreamableHTTPClientTransport(url, { requestInit: { headers } }),
	);
	return client;
}

/** The status n8n answers an MCP `initialize` request with, sent with these headers (no token, a wrong one...). */
export async function initializeStatus(n8nUrl: string, workflow: WorkflowJson, headers: Record<string, string> = {}): Promise<number> {
	const response = await fetch(mcpServerUrl(n8nUrl, workflow), {
		method: 'POST',
		headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
		body: JSON.stringify({
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
		}),
	});
	await response.body?.cancel();
	return response.status;
}

export interface ToolAnswer {
	isError: boolean;
	text: string;
	/** The text as JSON, when it is JSON (n8n answers with the tool's output items as a JSON array). */
	json: unknown;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
	const result = await client.callTool({ name, arguments: args });
	const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
	const text = content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { isError: result.isError === true, text, json };
}

export interface McpExamples {
	/** The example as shipped: its writes on Dry Run. */
	dry: StoredWorkflow;
	/** The example gone live, with a Max Rate Limit Wait of 5 s on `list_routines`. */
	live: StoredWorkflow;
	client: Client;
	liveClient: Client;
	/** The Bearer token both examples' MCP Server Triggers check. */
	token: string;
	close(): Promise<void>;
}

/**
 * The example twice, each activated and with a client session: as shipped, and live. The live one's small Max Rate
 * Limit Wait on one read lets a longer forced wait fail at once.
 */
export async function openMcpExamples(
	n8n: N8nClient,
	n8nVersion: string,
	credential: { id: string; name: string },
	serverUrl: string,
): Promise<McpExamples> {
	// As the demo does: a Bearer credential with a random token.
	const token = newMcpToken();
	const bearer = await ensureMcpBearerCredential(n8n, token);
	const dry = await createActiveWorkflow(n8n, n8nVersion, mcpExample(credential, bearer));
	const live = await createActiveWorkflow(
		n8n,
		n8nVersion,
		mcpExample(credential, bearer, {
			live: true,
			change: (node) => {
				if (node.name === 'list_routines') node.parameters = { ...node.parameters, options: { maxRateLimitWait: 5 } };
			},
		}),
	);
	const client = await connectMcp(serverUrl, dry, token);
	const liveClient = await connectMcp(serverUrl, live, token);
	return {
		dry,
		live,
		client,
		liveClient,
		token,
		async close() {
			await client.close();
			await liveClient.close();
		},
	};
}
