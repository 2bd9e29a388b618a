/**
 * The Prospecting node's AI-tool form: n8n builds it as a copy of the node whose type name ends in "Tool"
 * (n8n's convertNodeToAiTool), and its `@tool` display options decide the defaults. Tests register this copy
 * to run the tool form through the same engine.
 */
import type { INode, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { Prospecting } from '../../nodes/Prospecting/Prospecting.node';
import { executeWorkflow } from './execute-workflow';
import { PACKAGE_NAME, START_NODE } from './node-types';

export const PROSPECTING_TOOL_NODE_TYPE = `${PACKAGE_NAME}.prospectingTool`;

/** What n8n does to a node with usableAsTool (the parts that matter to execution). */
export function prospectingToolForm(): INodeType {
	const node = new Prospecting();
	const description: INodeTypeDescription = {
		...node.description,
		name: `${node.description.name}Tool`,
		displayName: `${node.description.displayName} Tool`,
		inputs: [],
		outputs: ['ai_tool'],
	};
	delete description.usableAsTool;
	return Object.assign(Object.create(Prospecting.prototype) as INodeType, node, { description });
}

/** Runs the tool form as one node after a manual start against `service`, as an agent's tool call would. */
export async function runToolForm(
	service: { url: string; apiKey: string },
	parameters: INode['parameters'],
	{
		name = 'Prospecting Tool',
		typeVersion = 1,
		credential = {},
	}: { name?: string; typeVersion?: number; credential?: Record<string, unknown> } = {},
) {
	const node: INode = {
		id: 'tool',
		name,
		type: PROSPECTING_TOOL_NODE_TYPE,
		typeVersion,
		position: [200, 0],
		parameters,
		credentials: { prospectingApi: { id: '1', name: 'Prospecting account' } },
	};
	const result = await executeWorkflow(
		{
			nodes: [START_NODE, node],
			connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		},
		{ credentials: { prospectingApi: { baseUrl: service.url, apiKey: service.apiKey, ...credential } } },
	);
	return Object.assign(result, { items: result.error ? [] : result.output(node.name) });
}
