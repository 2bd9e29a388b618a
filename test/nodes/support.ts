/** Builds and runs Prospecting workflows against a sandbox, and scans what a run produced for secrets. */
import type { IConnections, IDataObject, INode, INodeExecutionData, WorkflowExecuteMode } from 'n8n-workflow';

import { executeWorkflow, PROSPECTING_NODE_TYPE, START_NODE } from '../../dev/harness';
import { callToolNode } from '../../dev/harness/tool-call';
import { onControlledClock } from '../../dev/harness/clock';
import type { WorkflowRunResult } from '../../dev/harness';
import { rateSettings } from '../../nodes/Prospecting/transport/rateBudget';
import { holdAfterRefusal } from '../../nodes/Prospecting/transport/rateRules';

export const NODE_NAME = 'Prospecting';

/**
 * How long a 429 asking for `seconds` (Retry-After) holds the key, in seconds, as rule 7 says: tests of other rules
 * that meet such a hold read it here, so that they do not depend on rule 7's threshold.
 */
export const retryAfterHoldSeconds = (seconds: number): number =>
	holdAfterRefusal({ status: 429, retryAfterMs: seconds * 1000 }, rateSettings({}, 'read'), 0, 0).ms / 1000;

export const startNode: INode = START_NODE;

export interface RunOptions {
	baseUrl: string;
	apiKey: string;
	inputItems?: IDataObject[];
	/** On Error: true continues on the regular output (Continue), 'errorOutput' on the error output (output 1). */
	continueOnFail?: boolean | 'errorOutput';
	/** The credential's Rate Limit Window (Seconds); left out as in a credential saved without it. */
	rateLimitWindowSeconds?: number;
	/** The credential's Reads per Window and Writes per Window; left out as in a credential saved without them. */
	readsPerWindow?: number;
	writesPerWindow?: number;
	/** The credential's X-RateLimit-Reset Unit; left out as in a credential saved without it. */
	rateLimitResetUnit?: 'auto' | 'epochSeconds' | 'epochMs' | 'secondsFromNow';
	/** No credential given to the run, as when the node's credential was deleted or never set. */
	withoutCredential?: boolean;
	/**
	 * The credential's Writes in Manual Runs; 'send' unless given. 'n8n default': left out, as in a credential saved
	 * before the setting existed, so n8n applies the credential type's default.
	 */
	manualWrites?: 'dryRun' | 'ask' | 'send' | 'n8n default';
	/** The node's version as saved in the workflow; 1 unless given. */
	typeVersion?: number;
	/** n8n's Retry On Fail (node Settings) with this many tries; off when left out or 1. */
	maxTries?: number;
	/** Retry On Fail's Wait Between Tries (ms); 1 unless given (n8n reads 0 as its own default, 1 s). */
	waitBetweenTries?: number;
	/** The execution's mode: 'manual' (Execute workflow) unless given; 'retry' is Retry from the executions list. */
	mode?: WorkflowExecuteMode;
	/**
	 * Stops the execution as the editor's Stop does: when the signal aborts, or once `when` holds (looked at every
	 * 50 ms; the run fails, naming `what`, when it does not hold within 10 s).
	 */
	stop?: AbortSignal | { when: () => boolean; what: string };
}

export interface NodeRun extends WorkflowRunResult {
	/** The node's items on its (regular) output; none when the run failed. */
	items: INodeExecutionData[];
}

/** Runs Start -> Prospecting with these parameters and returns the node's output and the run. */
export async function runNode(parameters: INode['parameters'], options: RunOptions): Promise<NodeRun> {
	const { continueOnFail, maxTries, manualWrites } = options;
	const node: INode = {
		...prospectingNamed(NODE_NAME, parameters, options.typeVersion ?? 1),
		...(continueOnFail ? { onError: continueOnFail === 'errorOutput' ? 'continueErrorOutput' : 'continueRegularOutput' } : {}),
		...(maxTries !== undefined && maxTries > 1 ? { retryOnFail: true, maxTries, waitBetweenTries: options.waitBetweenTries ?? 1 } : {}),
	};
	const { baseUrl, apiKey, rateLimitWindowSeconds, readsPerWindow, writesPerWindow, rateLimitResetUnit, stop } = options;
	const settings = { rateLimitWindowSeconds, readsPerWindow, writesPerWindow, rateLimitResetUnit, manualWrites: manualWrites === 'n8n default' ? undefined : manualWrites };
	const credential = { baseUrl, apiKey, ...Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) };
	const stopping = new AbortController();
	const signal = stop instanceof AbortSignal ? stop : stopping.signal;
	const running = executeWorkflow(inLine(startNode, node), {
		credentials: options.withoutCredential ? {} : { prospectingApi: credential },
		credentialDefaults: manualWrites === 'n8n default',
		inputItems: options.inputItems,
		mode: options.mode,
		signal,
	});
	if (stop && !(stop instanceof AbortSignal)) await stopWhen(stop, stopping, running);
	const result = await running;
	// A run stopped before the node ran has no output; any other run without the node's fails here, naming what ran.
	const stoppedBefore = signal.aborted && !(NODE_NAME in result.run.data.resultData.runData);
	return Object.assign(result, { items: result.error || stoppedBefore ? [] : result.output(NODE_NAME) });
}

/** Aborts `stopping` once `when` holds; when it does not within 10 s, stops the run all the same and throws. */
async function stopWhen({ when, what }: { when: () => boolean; what: string }, stopping: AbortController, running: Promise<unknown>) {
	// The run's own failure is the caller's to see, once it awaits it.
	running.catch(() => undefined);
	for (let waited = 0; !when(); waited += 50) {
		if (waited > 10_000) {
			stopping.abort();
			await running.catch(() => undefined);
			throw new Error(`never ${what}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	stopping.abort();
}

/**
 * `runNode` on the controlled clock of dev/harness/clock.ts, shared by the node and the sandbox: waits of
 * rate-limit windows are sat out in full without the real seconds. `elapsedMs` is how long the run
 * took on that clock.
 */
export async function runNodeOnClock(
	parameters: INode['parameters'],
	options: RunOptions,
): Promise<NodeRun & { elapsedMs: number }> {
	const { result, elapsedMs } = await onControlledClock(
		async () => await runNode(parameters, options),
	);
	return Object.assign(result, { elapsedMs });
}

/** Every text a user or an operator could see from a run: outputs, the error (all its fields), the log lines. */
export function everythingVisible(run: WorkflowRunResult): string {
	const parts: string[] = [];
	try {
		parts.push(JSON.stringify(run.run.data.resultData));
	} catch {
		parts.push(String(run.run.data.resultData));
	}
	if (run.error) {
		const error = run.error as Error & IDataObject;
		parts.push(error.message, String(error.description ?? ''), String(error.stack ?? ''));
		try {
			parts.push(JSON.stringify(error));
			parts.push(JSON.stringify(error, Object.getOwnPropertyNames(error)));
		} catch {
			parts.push('unserialisable error');
		}
		const cause = (error as { cause?: unknown }).cause;
		if (cause) parts.push(String(cause), JSON.stringify(cause, Object.getOwnPropertyNames(cause)));
	}
	parts.push(...run.logs);
	return parts.join('\n');
}

/** The forms of a key that must never appear: plain and URL-encoded. */
export function secretForms(secret: string): string[] {
	return [
		...new Set([
			secret,
			encodeURIComponent(secret),
			encodeURIComponent(secret).replace(/%20/g, '+'),
		]),
	];
}

export function expectNoSecret(run: WorkflowRunResult, secret: string): void {
	const text = everythingVisible(run);
	for (const form of secretForms(secret)) {
		expect(text.includes(form)).toBe(false);
	}
}

/** The description of an error (what n8n shows under its message); empty when it has none. */
export const descriptionOf = (error: unknown): string => String((error as { description?: unknown } | undefined)?.description ?? '');

export function jsonOf(items: INodeExecutionData[]): IDataObject[] {
	return items.map((item) => item.json);
}

/** A workflow as n8n saves and exports it (the parts a run needs). */
export interface SavedWorkflow {
	name: string;
	nodes: INode[];
	connections: IConnections;
}

/** The credential reference every test workflow's Prospecting nodes point at. */
export const ownCredential = { prospectingApi: { id: '1', name: 'Prospecting account' } };

/** The start of a lead-capture workflow: each execution is one form post. */
export const formPost: INode = { ...START_NODE, name: 'Form Post' };

/** A Prospecting node named as a user would, with the test credential. */
export function prospectingNamed(name: string, parameters: INode['parameters'], typeVersion = 1): INode {
	return { id: name, name, type: PROSPECTING_NODE_TYPE, typeVersion, position: [0, 0], parameters, credentials: ownCredential };
}

/** Nodes in a line, each feeding the next, as a user drags them one after another. */
export function inLine(...nodes: INode[]): { nodes: INode[]; connections: IConnections } {
	const connections: IConnections = {};
	for (const [index, node] of nodes.slice(0, -1).entries()) {
		connections[node.name] = { main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] };
	}
	return { nodes: nodes.map((node, index) => ({ ...node, position: [index * 200, 0] })), connections };
}

/**
 * A saved workflow's Prospecting nodes as saved, with the connections between them, started by the harness in place
 * of the trigger (n8n's form and webhook nodes are not part of this package). An empty routine becomes `routine`,
 * as when the user picks it from the list after importing.
 */
export function prospectingPart(workflow: SavedWorkflow, routine?: { id: string; name: string }) {
	const kept = workflow.nodes
		.filter((node) => node.type === PROSPECTING_NODE_TYPE)
		.map((node) => {
			const routineId = node.parameters.routineId as { value?: unknown } | undefined;
			const parameters =
				routine && routineId && routineId.value === ''
					? { ...node.parameters, routineId: { __rl: true, mode: 'list', value: routine.id, cachedResultName: routine.name } }
					: node.parameters;
			return { ...node, parameters, credentials: ownCredential };
		});
	const names = new Set(kept.map((node) => node.name));
	const connections: IConnections = { Start: { main: [[]] } };
	for (const [source, outputs] of Object.entries(workflow.connections)) {
		for (const [index, targets] of (outputs.main ?? []).entries()) {
			const within = (targets ?? []).filter((target) => names.has(target.node));
			if (names.has(source)) {
				connections[source] ??= { main: [] };
				connections[source].main[index] = within;
			} else {
				connections.Start.main[0]!.push(...within);
			}
		}
	}
	if (connections.Start.main[0]!.length !== 1) {
		throw new Error(`"${workflow.name}" should start with one Prospecting node after its trigger`);
	}
	return { nodes: [startNode, ...kept], connections };
}

/**
 * A saved workflow's tool node, at `typeVersion`, called once with the model's `args` as an agent in an active
 * workflow calls it: its answer (`answer`, the items as JSON text) or the tool error it raised (`thrown`).
 */
export async function callSavedTool(
	workflow: SavedWorkflow,
	name: string,
	typeVersion: number,
	args: IDataObject,
	service: { url: string; apiKey: string },
) {
	const node = workflow.nodes.find((candidate) => candidate.name === name);
	if (node?.typeVersion !== typeVersion) throw new Error(`"${workflow.name}" has no node "${name}" at version ${typeVersion}`);
	const { result, json } = await callToolNode({ ...node, credentials: ownCredential }, args, {
		credentials: { prospectingApi: { baseUrl: service.url, apiKey: service.apiKey } },
		mode: 'webhook',
	});
	if (result.error) throw result.error;
	return json;
}

/** The items a tool answered with. */
export const toolAnswer = (json: { answer?: string }) => JSON.parse(String(json.answer)) as IDataObject[];
