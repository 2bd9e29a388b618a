import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * The ids of the webhooks with an item's name and URL listed just before its create was sent, per execution, node,
 * run and item. n8n's Retry On Fail runs the node again in this process with the same execution, run and items: a
 * later try of a create whose answer was lost reads them here, so it still names only a webhook new since then.
 */
const MAX_ENTRIES = 20_000;

const entries = new Map<string, string[]>();

function keyOf(context: IExecuteFunctions, itemIndex: number): string {
	const { runIndex } = context as unknown as { runIndex?: unknown };
	return JSON.stringify([context.getExecutionId(), context.getNode().name, runIndex, itemIndex]);
}

export function rememberListedBefore(context: IExecuteFunctions, itemIndex: number, ids: string[]): void {
	entries.set(keyOf(context, itemIndex), ids);
	// A retry follows its try within seconds: past the bound, the oldest entry goes.
	if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
}

export function listedBefore(context: IExecuteFunctions, itemIndex: number): Set<string> | undefined {
	const ids = entries.get(keyOf(context, itemIndex));
	return ids && new Set(ids);
}
