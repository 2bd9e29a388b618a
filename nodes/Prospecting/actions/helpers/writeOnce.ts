import { createHash } from 'node:crypto';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { outcomeOf } from '../../helpers/outcome';

/**
 * n8n's Retry On Fail runs the whole node again in the same process and execution, with the same run index and
 * items, and tells the node nothing. So each write remembers, per execution, node, run, item and body, how its
 * try ended: a later try returns a confirmed write's output instead of sending it again, and takes an unknown
 * one's own path (look, then say "may exist"), never a second send. Bounded and private to this process, which
 * is where n8n runs the retry, in queue mode too.
 */
type EarlierTry = { outcome: 'confirmed'; output: INodeExecutionData[] } | { outcome: 'unknown' };

/** n8n retries a node within seconds (at most 5 tries, 5 s apart); an hour covers the longest lost-lead search. */
const RECORD_TTL_MS = 60 * 60 * 1000;
/** Enough for a large execution's items; the oldest go first. */
const MAX_RECORDS = 20_000;

const records = new Map<string, { at: number; earlier: EarlierTry }>();

/** What identifies one write of one item in one run of this node, or undefined outside an execution. */
function writeKey(
	context: IExecuteFunctions,
	itemIndex: number,
	request: { method: string; path: string; body?: unknown },
): string | undefined {
	const executionId = context.getExecutionId();
	if (!executionId) return undefined;
	// n8n keeps the run index on the context it gives the node, outside its interface.
	const runIndex = (context as unknown as { runIndex?: number }).runIndex;
	const node = context.getNode();
	const body = createHash('sha256')
		.update(JSON.stringify([request.method, request.path, request.body ?? null]))
		.digest('hex');
	return JSON.stringify([executionId, node.id ?? node.name, runIndex, itemIndex, body]);
}

function recall(key: string): EarlierTry | undefined {
	const record = records.get(key);
	if (!record) return undefined;
	if (Date.now() - record.at > RECORD_TTL_MS) {
		records.delete(key);
		return undefined;
	}
	return record.earlier;
}

function remember(key: string, earlier: EarlierTry): void {
	records.delete(key);
	records.set(key, { at: Date.now(), earlier });
	for (const [oldest, record] of records) {
		if (records.size <= MAX_RECORDS && Date.now() - record.at <= RECORD_TTL_MS) break;
		records.delete(oldest);
	}
}

/** A copy, so a later node changing its input cannot change what a retry returns. */
function copied(output: INodeExecutionData[]): INodeExecutionData[] {
	return output.map((item) => ({ ...item, json: structuredClone(item.json) }));
}

/**
 * Runs `send` for the first try of a write in this execution. A later try of the same write (n8n's Retry On Fail)
 * returns the output of a confirmed one, runs `afterUnknown` (a check, never a second send) for one whose outcome
 * stayed unknown, and sends again only one that was proven not applied (not sent, refused).
 */
export async function onceInExecution(
	this: IExecuteFunctions,
	itemIndex: number,
	request: { method: string; path: string; body?: unknown },
	send: () => Promise<INodeExecutionData[]>,
	afterUnknown: () => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const key = writeKey(this, itemIndex, request);
	const earlier = key === undefined ? undefined : recall(key);
	if (earlier?.outcome === 'confirmed') return copied(earlier.output);
	try {
		const output = await (earlier?.outcome === 'unknown' ? afterUnknown() : send());
		if (key !== undefined) remember(key, { outcome: 'confirmed', output: copied(output) });
		return output;
	} catch (error) {
		if (key !== undefined && (earlier !== undefined || outcomeOf(error) === 'unknown')) {
			remember(key, { outcome: 'unknown' });
		}
		// The write's own error (already an n8n error, or a cancellation n8n must see as it is) goes on unchanged.
		const failure = error as Error;
		throw failure;
	}
}
