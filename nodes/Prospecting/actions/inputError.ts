import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** An input problem found before any call: names the field and the item. */
export function inputError(
	node: INode,
	itemIndex: number,
	field: string,
	problem: string,
): NodeOperationError {
	return new NodeOperationError(node, `${field}: ${problem} (item ${itemIndex})`, {
		itemIndex,
		description: `Fix the "${field}" parameter of item ${itemIndex}; nothing was sent to the service for this item.`,
	});
}
