/**
 * The MCP server example (examples/mcp/): n8n's MCP Server Trigger with the Prospecting tools a sales assistant
 * needs. The demo imports and activates it and prints the URL an MCP client connects to.
 */
import path from 'node:path';

import type { N8nClient, WorkflowJson } from './n8n-client';
import { importWorkflows, readWorkflowFiles, type ImportedWorkflow, type WorkflowBindings } from './instance-setup';
import { repoRoot } from './provision';

export const MCP_EXAMPLE_DIR = 'examples/mcp';
export const MCP_EXAMPLE = `${MCP_EXAMPLE_DIR}/prospecting-mcp-server.json`;
const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';

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

/** Imports and activates the MCP server example; returns it and the lines the demo prints about it. */
export async function importMcpExample(
	client: N8nClient,
	bindings: WorkflowBindings,
	mcpBase: string,
): Promise<{ imported: ImportedWorkflow[]; lines: string[] }> {
	const imported = await importWorkflows(client, readWorkflowFiles(path.join(repoRoot, MCP_EXAMPLE_DIR)), bindings, {
		activate: () => true,
	});
	const lines: string[] = [];
	for (const { workflow } of imported) {
		const url = mcpServerUrl(mcpBase, workflow);
		const bridge = JSON.stringify({ mcpServers: { prospecting: { command: 'npx', args: ['-y', 'mcp-remote', url, '--allow-http'] } } });
		lines.push(
			`  ${workflow.name}:`,
			`    MCP URL         ${url}   (Streamable HTTP; SSE clients use the same URL)`,
			'    tools           search_leads, create_lead, list_routines, add_lead_to_routine, list_prospections,',
			'                    funnel_conversion_rate (create_lead and add_lead_to_routine are on Dry Run: nothing is written)',
			`    MCP Inspector   npx @modelcontextprotocol/inspector   (transport "Streamable HTTP", URL above)`,
			`    desktop client  a stdio-to-HTTP bridge in its config: ${bridge}`,
		);
	}
	return { imported, lines };
}
