import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Whether the node runs as an AI agent's tool. n8n builds the tool form of a node as a type whose name ends
 * in "Tool" (prospectingTool), and decides its `@tool` display options the same way.
 */
export function isToolForm(this: IExecuteFunctions): boolean {
	return String(this.getNode().type ?? '').endsWith('Tool');
}
