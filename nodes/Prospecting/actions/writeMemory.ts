import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { outcomeOf } from '../helpers/outcome';

/**
 * What this process remembers about the writes it sends (each through writeOnce), and why (docs/dev/writes.md):
 * - a write's try, per execution, node, run and item: n8n's Retry On Fail runs the node again with the same items and
 *   tells it nothing, and a later try must not send what an earlier one sent;
 * - a contact's turn and doubt, per account and contact: creates that look before sending go one at a time per
 *   contact, and one whose outcome is not settled leaves its contacts in doubt until a window after it was looked for.
 * One lifetime rule: an entry lives until its `until` (a try's until the node's last try is over, a contact's while its
 * turn is held or its doubt lasts); ended ones go as others come. One bound: past MAX_ENTRIES, the oldest go first.
 * Private to this process: queue-mode workers do not share it.
 */

/** Far more than the node runs and contacts a process holds at once. */
const MAX_ENTRIES = 100_000;
/** n8n waits at most 5 s before another try of Retry On Fail; a try's record waits this long more for it. */
const NEXT_TRY_WITHIN_MS = 60_000;

class Remembered<V extends { until: number }> {
	private readonly entries = new Map<string, V>();

	get(key: string): V | undefined {
		const entry = this.entries.get(key);
		return entry && entry.until > Date.now() ? entry : undefined;
	}

	set(key: string, entry: V): V {
		this.entries.delete(key);
		this.entries.set(key, entry);
		for (const [oldest, { until }] of this.entries) {
			if (this.entries.size <= MAX_ENTRIES && until > Date.now()) break;
			this.entries.delete(oldest);
		}
		return entry;
	}

	delete = (key: string) => this.entries.delete(key);
	clear = () => this.entries.clear();
}

/** An earlier try of a write: its output once confirmed, or what a later try needs of one sent. */
type Try = { outcome: 'confirmed'; output: INodeExecutionData[] } | { outcome: 'sent'; detail: unknown };

const runs = new Remembered<{ until: number; tries: number; items: Map<number, Try> }>();

/** A run of a node in an execution (n8n keeps the run index on the context, outside its interface); none outside one. */
function runKey(context: IExecuteFunctions): string | undefined {
	const node = context.getNode();
	const { runIndex } = context as unknown as { runIndex?: number };
	return context.getExecutionId() ? JSON.stringify([context.getExecutionId(), node.id ?? node.name, runIndex]) : undefined;
}

/** n8n's own bounds on Retry On Fail (n8n-core's workflow-execute): 2 to 5 tries, at most 5 s apart. */
const triesOf = (node: INode) =>
	node.retryOnFail === true ? { max: Math.min(5, Math.max(2, node.maxTries || 3)), waitMs: Math.min(5000, Math.max(0, node.waitBetweenTries || 1000)) } : { max: 1, waitMs: 0 };

/**
 * Runs one try of the node. Its writes' records live while it runs and, when n8n will run the node again (it threw, or
 * its first item is an error item, with tries left), until the next try starts; otherwise they go now.
 */
export async function duringTry(context: IExecuteFunctions, run: () => Promise<INodeExecutionData[][]>): Promise<INodeExecutionData[][]> {
	const key = runKey(context);
	if (key === undefined) return await run();
	const record = runs.get(key) ?? runs.set(key, { until: Infinity, tries: 0, items: new Map() });
	record.until = Infinity;
	record.tries += 1;
	let output: INodeExecutionData[][] | undefined;
	try {
		output = await run();
		return output;
	} finally {
		const tries = triesOf(context.getNode());
		const again = (output === undefined || output[0]?.[0]?.json?.error !== undefined) && record.tries < tries.max;
		if (again) record.until = Date.now() + tries.waitMs + NEXT_TRY_WITHIN_MS;
		else runs.delete(key);
	}
}

/** A copy, so that a later node changing its input cannot change what a later try returns. */
const copied = (output: INodeExecutionData[]) => output.map((item) => ({ ...item, json: structuredClone(item.json) }));

/** A create sent whose outcome is not settled: when, and how long to look for it. Its contacts are in doubt meanwhile. */
export type Doubt = { sentAt: number; windowMs: number };
/** The contacts a create sends, as keys of one account; creates that look before sending (`waits`) take their turn. */
type WriteContacts = { account: string; keys: string[]; waits: boolean };

/**
 * One write of one item, sent at most once per execution whatever n8n's Retry On Fail does. The first try runs `send`,
 * which calls `sending(detail)` just before its request leaves; a later try returns what an earlier one confirmed, looks
 * on (`again`, never a second send) for one sent with its outcome unknown, and sends again one proven not applied. A
 * create of `contacts` runs in their turn, is told the latest doubt on them, and leaves them in doubt until it settles.
 */
export async function writeOnce<D>(
	context: IExecuteFunctions,
	itemIndex: number,
	write: {
		send: (sending: (detail: D) => void, doubt?: D & { until: number }) => Promise<INodeExecutionData[]>;
		again: (detail: D) => Promise<INodeExecutionData[]>;
		contacts?: D extends Doubt ? WriteContacts : never;
	},
): Promise<INodeExecutionData[]> {
	const key = runKey(context);
	const items = key === undefined ? undefined : runs.get(key)?.items;
	const earlier = items?.get(itemIndex);
	if (earlier?.outcome === 'confirmed') return copied(earlier.output);
	return await inContactTurn(write.contacts, async (turn) => {
		const sending = (detail: D) => {
			items?.set(itemIndex, { outcome: 'sent', detail });
			turn.inDoubt(write.contacts && (detail as Doubt));
		};
		try {
			// A later try looks on as the one that sent it.
			if (earlier) sending(earlier.detail as D);
			const output = await (earlier ? write.again(earlier.detail as D) : write.send(sending, turn.doubt as (D & { until: number }) | undefined));
			items?.set(itemIndex, { outcome: 'confirmed', output: copied(output) });
			turn.settled();
			return output;
		} catch (error) {
			if (!earlier && ['notSent', 'refused'].includes(outcomeOf(error) ?? '')) {
				items?.delete(itemIndex);
				turn.settled();
			}
			// The write's own error (already an n8n error, or a cancellation n8n must see as it is) goes on unchanged.
			const failure = error as Error;
			throw failure;
		}
	});
}

/** A contact's turn (the last holder's promise, `held` counting holders and waiters) and its doubt. */
const contacts = new Remembered<{ until: number; tail: Promise<void>; held: number; doubt?: Doubt & { until: number } }>();

/**
 * Runs `task` with these contacts: holding their turn when it `waits`, else beside the holder; told the latest doubt on
 * them. A doubt it marks lasts its window from when it ends (or is stopped); clearing clears only its own.
 */
async function inContactTurn<T>(of: WriteContacts | undefined, task: (turn: { doubt?: Doubt & { until: number }; inDoubt(doubt?: Doubt): void; settled(): void }) => Promise<T>): Promise<T> {
	const ids = [...new Set(of?.keys ?? [])].map((key) => JSON.stringify([of?.account, key]));
	const entries = ids.map((id) => contacts.get(id) ?? contacts.set(id, { until: Infinity, tail: Promise.resolve(), held: 0 }));
	let release!: () => void;
	const mine = new Promise<void>((resolve) => (release = resolve));
	const before = of?.waits ? entries.map((entry) => entry.tail) : [];
	for (const entry of entries) Object.assign(entry, { held: entry.held + 1, until: Infinity, tail: of?.waits ? entry.tail.then(async () => await mine) : entry.tail });
	let left: (Doubt & { until: number }) | undefined;
	try {
		await Promise.all(before);
		const doubts = entries.flatMap((entry) => (entry.doubt && entry.doubt.until > Date.now() ? [entry.doubt] : []));
		const mark = (doubt?: Doubt) => {
			const own = left;
			left = doubt && { ...doubt, until: Infinity };
			for (const entry of entries) if (left || entry.doubt === own) entry.doubt = left;
		};
		return await task({ doubt: doubts.sort((a, b) => b.sentAt - a.sentAt)[0], inDoubt: mark, settled: () => mark(undefined) });
	} finally {
		const now = Date.now();
		if (left) left.until = now + left.windowMs;
		entries.forEach((entry, index) => {
			entry.held -= 1;
			entry.until = entry.held > 0 ? Infinity : (entry.doubt?.until ?? now);
			if (entry.until <= now) contacts.delete(ids[index]);
		});
		release();
	}
}

/** Forgets everything (tests start from a clean process state, as after a restart). */
export function forgetWrites(): void {
	runs.clear();
	contacts.clear();
}
