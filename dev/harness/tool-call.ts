/**
 * An AI agent's call of a tool node, as n8n's AI Agent makes it: a small agent node gets the connected tools from
 * n8n-core (createNodeAsTool, with the parent's execution mode) and invokes each with the model's arguments, which
 * fill the tool's $fromAI() parameters.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeWorkflow } from './execute-workflow';
import type { TestCredentials } from './execute-workflow';
import { registerNodeType, START_NODE_TYPE } from './node-types';

export const TOOL_CALLER_NODE_TYPE = 'test.toolCaller';

interface InvocableTool {
	invoke(args: IDataObject): Promise<unknown>;
}

/**
 * Calls every connected tool once with the item's `toolArgs`, as an agent does after the model chose it: each
 * answer as `{ answer }`, each thrown tool error as `{ thrown }`.
 */
export class ToolCaller implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Tool Caller',
		name: 'toolCaller',
		group: ['transform'],
		version: 1,
		description: 'Calls its tools',
		defaults: { name: 'Agent' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as InvocableTool[];
		const args = (this.getInputData()[0]?.json.toolArgs ?? {}) as IDataObject;
		const results: INodeExecutionData[] = [];
		for (const tool of tools) {
			try {
				results.push({ json: { answer: String(await tool.invoke(args)) } });
			} catch (error) {
				results.push({ json: { thrown: String((error as Error).message) } });
			}
		}
		return [results];
	}
}

registerNodeType(TOOL_CALLER_NODE_TYPE, () => new ToolCaller());

/** Start → Agent, with `tool` connected to the agent, which calls it once with `toolArgs`. */
export async function callToolNode(
	tool: INode,
	toolArgs: IDataObject,
	options: { credentials: TestCredentials; mode?: WorkflowExecuteMode },
) {
	const result = await executeWorkflow(
		{
			nodes: [
				{ id: 'start', name: 'Start', type: START_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: {} },
				{ id: 'agent', name: 'Agent', type: TOOL_CALLER_NODE_TYPE, typeVersion: 1, position: [200, 0], parameters: {} },
				tool,
			],
			connections: {
				Start: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
				[tool.name]: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
			},
		},
		{ credentials: options.credentials, inputItems: [{ toolArgs }], mode: options.mode },
	);
	const [output] = result.error ? [] : result.output('Agent');
	return { result, json: (output?.json ?? {}) as { answer?: string; thrown?: string } };
}
