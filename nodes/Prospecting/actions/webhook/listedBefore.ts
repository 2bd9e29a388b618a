import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * The ids of the webhooks with an item's name and URL listed just before its create was sent, per execution, node,
 * run and item. n8n's Retry On Fail runs the node again in this process with the same execution, run and items: a
 * later try of a create whose answer was lost reads them here, so it still names only a webhook new since then.
 */
const MAX_ENTRIES = 1_000;

const entries = new Map<string, string[]>();

function keyOf(context: IExecuteFunctions, itemIndex: number): string | undefined {
	const executionId = context.getExecutionId?.();
	if (!executionId) return undefined;
	const runIndex = (context as unknown as { runIndex?: unknown }).runIndex;
	const node = context.getNode();
	return JSON.stringify([executionId, node.id ?? node.name, typeof runIndex === 'number' ? runIndex : 0, itemIndex]);
}

export function rememberListedBefore(context: IExecuteFunctions, itemIndex: number, ids: string[]): void {
	const key = keyOf(context, itemIndex);
	if (key === undefined) return;
	entries.delete(key);
	entries.set(key, ids);
	// The oldest go first: a retry follows its try within seconds.
	for (const oldest of entries.keys()) {
		if (entries.size <= MAX_ENTRIES) break;
		entries.delete(oldest);
	}
}

export function listedBefore(context: IExecuteFunctions, itemIndex: number): Set<string> | undefined {
	const key = keyOf(context, itemIndex);
	const ids = key === undefined ? undefined : entries.get(key);
	return ids === undefined ? undefined : new Set(ids);
}
