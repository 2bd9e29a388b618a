/**
 * The Prospecting node's AI-tool form: n8n builds it as a copy of the node whose type name ends in "Tool"
 * (n8n's convertNodeToAiTool), and its `@tool` display options decide the defaults. Tests register this copy
 * to run the tool form through the same engine.
 */
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { Prospecting } from '../../nodes/Prospecting/Prospecting.node';
import { PACKAGE_NAME } from './node-types';

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
