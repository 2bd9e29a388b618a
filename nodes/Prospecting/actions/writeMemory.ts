import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { outcomeOf } from '../helpers/outcome';

/**
 * What this process remembers about the writes it sends, in one place, and why:
 * - **a write's try**, per execution, node, run and item: n8n's Retry On Fail runs the node again with the same items
 *   and tells it nothing, so a later try returns what an earlier try confirmed, and looks (never sends again) for what
 *   an earlier try sent with an outcome still unknown;
 * - **a contact's turn and doubt**, per account and contact: creates of one contact go one at a time in this process,
 *   and a create whose outcome stayed unknown leaves its contact in doubt for one lost-lead window after it was last
 *   looked for (a Stop included), with the leads this process already knew for it.
 * One lifetime rule: an entry lives until its `until` (a try's until the node's last try is over, a contact's while
 * its turn is held or its doubt lasts). One bound: past MAX_ENTRIES, the entries nearest their end go first.
 * Private to this process: queue-mode workers do not share it.
 */

/** Far more than the items a process holds at once; past it, the entries nearest their end go first. */
const MAX_ENTRIES = 100_000;
/** Ended entries are swept this often (writes), so that a long-running n8n does not keep them. */
const SWEEP_EVERY = 1000;
/** n8n waits at most 5 s before another try (Retry On Fail); a try's record waits this long for it. */
const NEXT_TRY_WITHIN_MS = 60_000;
/** How long a lead this process created or found stays known for its contacts: past the unmeasured clock's reach. */
const KNOWN_FOR_MS = 5 * 60_000;

/** Entries that live until their `until`, bounded: swept of the ended ones every SWEEP_EVERY writes. */
class Remembered<V extends { until: number }> {
	private readonly entries = new Map<string, V>();
	private writes = 0;

	get(key: string): V | undefined {
		const entry = this.entries.get(key);
		if (entry === undefined || entry.until > Date.now()) return entry;
		this.entries.delete(key);
		return undefined;
	}

	set(key: string, entry: V): V {
		this.entries.set(key, entry);
		if (++this.writes % SWEEP_EVERY === 0 || this.entries.size > MAX_ENTRIES) this.sweep();
		return entry;
	}

	delete(key: string): void {
		this.entries.delete(key);
	}

	clear(): void {
		this.entries.clear();
	}

	private sweep(): void {
		const now = Date.now();
		for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
		if (this.entries.size <= MAX_ENTRIES) return;
		// A tenth at once, so that a full memory sorts once per MAX_ENTRIES / 10 entries.
		const nearest = [...this.entries].sort(([, a], [, b]) => a.until - b.until);
		for (const [key] of nearest.slice(0, this.entries.size - MAX_ENTRIES * 0.9)) this.entries.delete(key);
	}
}

/** What a write's earlier try left: its output once confirmed, or when it was sent and what a later try needs. */
export type Try<D> = { outcome: 'confirmed'; output: INodeExecutionData[] } | { outcome: 'sent'; sentAt: number; detail: D };

interface NodeRun {
	until: number;
	tries: number;
	items: Map<number, Try<unknown>>;
}

const runs = new Remembered<NodeRun>();

/** A run of a node in an execution (n8n keeps the run index on the context, outside its interface), or none outside one. */
function runKey(context: IExecuteFunctions): string | undefined {
	const executionId = context.getExecutionId();
	if (!executionId) return undefined;
	const node = context.getNode();
	return JSON.stringify([executionId, node.id ?? node.name, (context as unknown as { runIndex?: number }).runIndex]);
}

/** n8n's own bounds on Retry On Fail (n8n-core's workflow-execute): 2 to 5 tries, at most 5 s apart. */
function triesOf(node: INode): { max: number; waitMs: number } {
	if (node.retryOnFail !== true) return { max: 1, waitMs: 0 };
	return { max: Math.min(5, Math.max(2, node.maxTries || 3)), waitMs: Math.min(5000, Math.max(0, node.waitBetweenTries || 1000)) };
}

/**
 * Runs one try of the node. Its writes' records live while it runs and, when n8n will run the node again (it threw,
 * or its first item is an error item, with tries left), until the next try starts; otherwise they go now.
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
		const failed = output === undefined || output[0]?.[0]?.json?.error !== undefined;
		if (failed && record.tries < tries.max) record.until = Date.now() + tries.waitMs + NEXT_TRY_WITHIN_MS;
		else runs.delete(key);
	}
}

/** A copy, so that a later node changing its input cannot change what a later try returns. */
const copied = (output: INodeExecutionData[]) => output.map((item) => ({ ...item, json: structuredClone(item.json) }));

/**
 * One write of one item, sent at most once per execution whatever n8n's Retry On Fail does. The first try runs `send`,
 * which calls `sending(detail)` just before its request leaves. A later try returns what an earlier one confirmed, runs
 * `again` (a check, never a second send) for one sent with an outcome still unknown, and sends again only one proven
 * not applied (not sent, refused).
 */
export async function writeOnce<D>(
	context: IExecuteFunctions,
	itemIndex: number,
	write: { send: (sending: (detail: D) => void) => Promise<INodeExecutionData[]>; again: (earlier: { sentAt: number; detail: D }) => Promise<INodeExecutionData[]> },
): Promise<INodeExecutionData[]> {
	const key = runKey(context);
	const items = key === undefined ? undefined : runs.get(key)?.items;
	const earlier = items?.get(itemIndex) as Try<D> | undefined;
	if (earlier?.outcome === 'confirmed') return copied(earlier.output);
	try {
		const output = await (earlier ? write.again(earlier) : write.send((detail) => items?.set(itemIndex, { outcome: 'sent', sentAt: Date.now(), detail })));
		items?.set(itemIndex, { outcome: 'confirmed', output: copied(output) });
		return output;
	} catch (error) {
		const proven = outcomeOf(error);
		if (!earlier && (proven === 'notSent' || proven === 'refused')) items?.delete(itemIndex);
		// The write's own error (already an n8n error, or a cancellation n8n must see as it is) goes on unchanged.
		const failure = error as Error;
		throw failure;
	}
}

/** A create sent for these contacts whose outcome is not known yet: what was sent, when, and how long to look. */
export interface Doubt<S> {
	sentAt: number;
	sent: S;
	windowMs: number;
}

interface Contact {
	until: number;
	/** The turn: the last holder's promise; `held` counts holders and waiters. */
	tail: Promise<void>;
	held: number;
	doubt?: Doubt<unknown> & { until: number };
	known: string[];
	knownUntil: number;
}

const contacts = new Remembered<Contact>();

/** What one holder of a contact's turn reads and tells. */
export interface ContactTurn<S> {
	/** The latest create of these contacts whose outcome is not known yet, in doubt until `until`. */
	doubt?: Doubt<S> & { until: number };
	/** Leads this process created or found for these contacts lately: none of them is a create sent from now on. */
	known: string[];
	/** A create is sent, or looked for again by a later try of its item: its contacts stay in doubt until settled. */
	inDoubt(doubt: Doubt<S>): void;
	/** The create's outcome is known: no doubt left, and its lead, when there is one, known. */
	settled(leadId?: string): void;
}

/**
 * Runs `task` holding the turn of every one of these contacts of the account, so that creates of one contact go one at
 * a time in this process. A doubt left when the task ends (or is stopped) lasts its window from then.
 */
export async function inContactTurn<S, T>(account: string, keys: string[], task: (turn: ContactTurn<S>) => Promise<T>): Promise<T> {
	const ids = [...new Set(keys)].map((key) => JSON.stringify([account, key]));
	const entries = ids.map((id) => contacts.get(id) ?? contacts.set(id, { until: Infinity, tail: Promise.resolve(), held: 0, known: [], knownUntil: 0 }));
	let release!: () => void;
	const mine = new Promise<void>((resolve) => (release = resolve));
	const before = entries.map((entry) => entry.tail);
	for (const entry of entries) {
		entry.held += 1;
		entry.until = Infinity;
		entry.tail = entry.tail.then(async () => await mine);
	}
	let left: Doubt<S> | undefined;
	try {
		await Promise.all(before);
		const now = Date.now();
		const doubts = entries.map((entry) => entry.doubt).filter((doubt) => doubt !== undefined && doubt.until > now) as Array<Doubt<S> & { until: number }>;
		return await task({
			doubt: doubts.sort((a, b) => b.sentAt - a.sentAt)[0],
			known: [...new Set(entries.flatMap((entry) => (entry.knownUntil > now ? entry.known : [])))],
			inDoubt: (doubt) => {
				left = doubt;
				for (const entry of entries) entry.doubt = { ...doubt, until: Infinity };
			},
			settled: (leadId) => {
				left = undefined;
				for (const entry of entries) {
					entry.doubt = undefined;
					if (leadId === undefined) continue;
					entry.known = [...(entry.knownUntil > Date.now() ? entry.known : []), leadId];
					entry.knownUntil = Date.now() + KNOWN_FOR_MS;
				}
			},
		});
	} finally {
		const now = Date.now();
		entries.forEach((entry, index) => {
			entry.held -= 1;
			if (left && entry.doubt?.until === Infinity) entry.doubt.until = now + left.windowMs;
			entry.until = entry.held > 0 ? Infinity : Math.max(entry.doubt?.until ?? 0, entry.knownUntil);
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
