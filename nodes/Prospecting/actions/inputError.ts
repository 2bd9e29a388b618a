import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withOutcome } from '../helpers/outcome';

/** An input problem found before any call: names the field and the item. Nothing was sent (outcome 'notSent'). */
export function inputError(
	node: INode,
	itemIndex: number,
	field: string,
	problem: string,
): NodeOperationError {
	const error = new NodeOperationError(node, `${field}: ${problem} (item ${itemIndex})`, {
		itemIndex,
		description: `Fix the "${field}" parameter of item ${itemIndex}; nothing was sent to the service for this item.`,
	});
	return withOutcome(error, 'notSent');
}
