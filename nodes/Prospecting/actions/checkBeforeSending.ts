import type { INode } from 'n8n-workflow';

import { withNote } from '../helpers/nodeError';
import { withOutcome } from '../helpers/outcome';

/**
 * A read a write makes before sending (Skip If Exists' search, a retried execution's search, Webhook Create's list).
 * When it fails, nothing was sent, whatever the read's own failure (a 5xx, a lost answer, a 429): the error keeps the
 * service's words and the call, says what was not created and why, and carries outcome `notSent`. A Stop during the
 * read needs nothing here: n8n ends a cancelled execution as cancelled, whatever is thrown.
 */
export async function checkBeforeSending<T>(
	node: INode,
	check: { record: 'lead' | 'webhook'; why: string },
	read: () => Promise<T>,
): Promise<T> {
	try {
		return await read();
	} catch (error) {
		const note = `The ${check.record} was not created: ${check.why}. Run this item again once the service answers.`;
		throw withOutcome(withNote(node, error, note), 'notSent');
	}
}
