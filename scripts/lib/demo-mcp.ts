/**
 * The MCP server example (examples/mcp/): n8n's MCP Server Trigger with the Prospecting tools a sales assistant
 * needs, behind Bearer auth. The demo creates the Bearer credential with a random token, imports and activates the
 * example, and prints the URL and the token an MCP client connects with.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';

import type { N8nClient, WorkflowJson } from './n8n-client';
import { importWorkflows, readWorkflowFiles, type ImportedWorkflow, type WorkflowBindings } from './instance-setup';
import { repoRoot } from './provision';

export const MCP_EXAMPLE_DIR = 'examples/mcp';
export const MCP_EXAMPLE = `${MCP_EXAMPLE_DIR}/prospecting-mcp-server.json`;
const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';
/** n8n's own Bearer credential, which the MCP Server Trigger checks on every request. */
export const MCP_BEARER_CREDENTIAL_TYPE = 'httpBearerAuth';
export const MCP_BEARER_CREDENTIAL_NAME = 'MCP Bearer Token';

/**
 * Production URL of the workflow's MCP Server Trigger. From node version 2 one URL serves both transports:
 * Streamable HTTP (POST) and SSE (GET opens the stream; messages are posted to the same path).
 */
export function mcpServerUrl(n8nUrl: string, workflow: WorkflowJson): string {
	const trigger = workflow.nodes.find((node) => node.type === MCP_TRIGGER_TYPE);
	const mcpPath = trigger?.parameters?.path;
	if (typeof mcpPath !== 'string' || !mcpPath) throw new Error(`Workflow "${workflow.name}" has no MCP Server Trigger with a path`);
	const suffix = Number(trigger?.typeVersion ?? 1) < 2 ? '/sse' : '';
	return `${n8nUrl}/mcp/${mcpPath}${suffix}`;
}

/** A new random token for the MCP Server Trigger: 32 random bytes, base64url (43 characters). */
export function newMcpToken(): string {
	return randomBytes(32).toString('base64url');
}

/** Creates the Bearer credential, or gives the existing one (same name) this token. */
export async function ensureMcpBearerCredential(
	client: N8nClient,
	token: string,
	name = MCP_BEARER_CREDENTIAL_NAME,
): Promise<{ id: string; name: string }> {
	const existing = (await client.listCredentials()).find((c) => c.name === name && c.type === MCP_BEARER_CREDENTIAL_TYPE);
	if (existing) {
		await client.updateCredential(existing.id, name, MCP_BEARER_CREDENTIAL_TYPE, { token });
		return existing;
	}
	return await client.createCredential(name, MCP_BEARER_CREDENTIAL_TYPE, { token });
}

/** A copy of the workflow whose MCP Server Trigger uses this Bearer credential. */
export function withMcpBearerCredential(workflow: WorkflowJson, credential: { id: string; name: string }): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(workflow)) as WorkflowJson;
	for (const node of copy.nodes) {
		if (node.type !== MCP_TRIGGER_TYPE) continue;
		node.parameters = { ...node.parameters, authentication: 'bearerAuth' };
		const credentials = (node.credentials ?? {}) as Record<string, { id: string; name: string }>;
		node.credentials = { ...credentials, [MCP_BEARER_CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
	}
	return copy;
}

/** Whether the workflow's MCP Server Trigger answers without a token (a workflow kept from before the example had auth). */
function isOpen(workflow: WorkflowJson): boolean {
	const trigger = workflow.nodes.find((node) => node.type === MCP_TRIGGER_TYPE);
	const authentication = trigger?.parameters?.authentication;
	return authentication === undefined || authentication === 'none';
}

/** Imports and activates the MCP server example behind a new Bearer token; returns it and the lines the demo prints. */
export async function importMcpExample(
	client: N8nClient,
	bindings: WorkflowBindings,
	mcpBase: string,
): Promise<{ imported: ImportedWorkflow[]; lines: string[]; token: string }> {
	// A new token on every start: the credential is updated, so a workflow kept from an earlier run uses it too.
	const token = newMcpToken();
	const bearer = await ensureMcpBearerCredential(client, token);
	const files = readWorkflowFiles(path.join(repoRoot, MCP_EXAMPLE_DIR)).map(({ file, workflow }) => ({
		file,
		workflow: withMcpBearerCredential(workflow, bearer),
	}));
	const imported = await importWorkflows(client, files, bindings, { activate: () => true });
	const lines: string[] = [];
	for (const { workflow } of imported) {
		const url = mcpServerUrl(mcpBase, workflow);
		const header = `Authorization: Bearer ${token}`;
		const bridge = JSON.stringify({
			mcpServers: { prospecting: { command: 'npx', args: ['-y', 'mcp-remote', url, '--allow-http', '--header', header] } },
		});
		lines.push(
			`  ${workflow.name}:`,
			`    MCP URL         ${url}   (Streamable HTTP; SSE clients use the same URL)`,
			`    MCP bearer token: ${token}`,
			`                    (in the "${bearer.name}" credential; every client sends it as the header "Authorization: Bearer <token>")`,
			'    tools           search_leads, create_lead, list_routines, add_lead_to_routine, list_prospections,',
			'                    funnel_conversion_rate (create_lead and add_lead_to_routine are on Dry Run: nothing is written)',
			`    MCP Inspector   npx @modelcontextprotocol/inspector   (transport "Streamable HTTP", URL above,`,
			`                    Authentication: Bearer Token, the token above)`,
			`    desktop client  a stdio-to-HTTP bridge in its config: ${bridge}`,
			`    check           curl -s -X POST ${url} -H '${header}' -H 'content-type: application/json' \\`,
			`                      -H 'accept: application/json, text/event-stream' \\`,
			`                      -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'`,
			'                    (answers the server\'s name and version; without the header, or with another token, n8n answers 403)',
		);
		if (isOpen(workflow)) {
			lines.push(
				'    WARNING         this workflow was kept from an earlier run and has no authentication: anyone who reaches',
				`                    the URL can call its tools. Set its MCP Server Trigger's Authentication to Bearer Auth ("${bearer.name}").`,
			);
		}
	}
	return { imported, lines, token };
}
