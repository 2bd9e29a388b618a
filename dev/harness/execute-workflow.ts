/**
 * Runs a workflow (as saved by n8n: nodes + connections) through n8n-core's WorkflowExecute, the way
 * n8n runs a manual execution: real node classes, real credential resolution, real HTTP.
 */
import type {
	ExecutionError,
	IConnections,
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	IRun,
	IWorkflowBase,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	ApplicationError,
	createRunExecutionData,
	ExpressionError,
	NodeApiError,
	NodeOperationError,
	NodeSslError,
	Workflow,
	WorkflowOperationError,
} from 'n8n-workflow';
import { WorkflowExecute, WorkflowHasIssuesError } from 'n8n-core';

import { TestCredentialsHelper } from './credentials';
import { createAdditionalData, ensureEngine, nextExecutionId } from './engine';
import { withLogSink } from './log-capture';
import type { LogSink } from './log-capture';
import { nodeTypes, START_NODE_TYPE } from './node-types';

export interface TestCredentials {
	prospectingApi?: { baseUrl: string; apiKey: string } & ICredentialDataDecryptedObject;
	[type: string]: ICredentialDataDecryptedObject | undefined;
}

export interface TestWorkflow {
	nodes: INode[];
	connections: IConnections;
	name?: string;
	settings?: IWorkflowSettings;
	staticData?: IDataObject;
}

export interface ExecuteWorkflowOptions {
	/** Credential data by credential type; used by every node whose `credentials.<type>` is set. */
	credentials?: TestCredentials;
	/** Items the start node emits (default: one empty item). */
	inputItems?: IDataObject[];
	/** Execution mode; 'manual' is a user clicking "Execute workflow" in the editor. */
	mode?: WorkflowExecuteMode;
	/**
	 * Tests send writes for real unless they say otherwise: a prospectingApi credential without
	 * `manualWrites` gets 'send' here. With `true`, the credential is used as given, so n8n applies the
	 * credential type's own default (Dry Run), as it does for a credential saved before that field existed.
	 */
	credentialDefaults?: boolean;
	/** Stops the execution when aborted, as the editor's Stop does (n8n cancels the running execution). */
	signal?: AbortSignal;
}

/** The prospectingApi credential as a test means it: writes are sent unless the test sets `manualWrites`. */
function explicitCredentials(options: ExecuteWorkflowOptions): TestCredentials {
	const credentials = { ...(options.credentials ?? {}) };
	const prospecting = credentials.prospectingApi;
	if (prospecting && !options.credentialDefaults && prospecting.manualWrites === undefined) {
		credentials.prospectingApi = { ...prospecting, manualWrites: 'send' };
	}
	return credentials;
}

export interface WorkflowRunResult {
	/** Everything n8n stores for the execution. */
	run: IRun;
	/** Items a node emitted on one output, over all of its runs in this execution. */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** The error that stopped the execution, as the node raised it (NodeApiError, NodeOperationError…). */
	error?: Error;
	/** Every log line (LoggerProxy / n8n-core logger, with metadata) and console line of this run. */
	logs: string[];
	/** Node names in the order they finished. */
	executedNodes: string[];
	/** Workflow static data after the run (what n8n would persist). */
	staticData: IDataObject;
}

const errorClasses: Record<string, new (...args: never[]) => Error> = {
	NodeApiError: NodeApiError as unknown as new (...args: never[]) => Error,
	NodeOperationError: NodeOperationError as unknown as new (...args: never[]) => Error,
	NodeSslError: NodeSslError as unknown as new (...args: never[]) => Error,
	ExpressionError: ExpressionError as unknown as new (...args: never[]) => Error,
	WorkflowOperationError: WorkflowOperationError as unknown as new (...args: never[]) => Error,
};

/**
 * n8n stores a node's error in the run data as a copy of its own fields (message, description,
 * httpCode, context, node, name…). Gives that copy back its class, so tests can use `instanceof`
 * as well as read the fields a user sees.
 */
export function reviveError(stored: ExecutionError | IDataObject | undefined): Error | undefined {
	if (!stored) return undefined;
	if (stored instanceof Error) return stored;
	const name = typeof stored.name === 'string' ? stored.name : 'Error';
	const ErrorClass = errorClasses[name] ?? Error;
	const revived = Object.create(ErrorClass.prototype) as Error & IDataObject;
	Object.assign(revived, stored);
	if (revived.message === undefined) revived.message = String(stored.message ?? '');
	return revived;
}

function pickStartNode(nodes: INode[], connections: IConnections): INode {
	const harnessStart = nodes.find((node) => node.type === START_NODE_TYPE && !node.disabled);
	if (harnessStart) return harnessStart;
	const destinations = new Set<string>();
	for (const outputs of Object.values(connections)) {
		for (const connectionsOfType of Object.values(outputs)) {
			for (const group of connectionsOfType ?? []) {
				for (const connection of group ?? []) destinations.add(connection.node);
			}
		}
	}
	const root = nodes.find((node) => !destinations.has(node.name) && !node.disabled);
	if (!root) throw new ApplicationError('The test workflow has no node to start from');
	return root;
}

let workflowCounter = 0;

/**
 * Executes a workflow in this process through n8n-core's WorkflowExecute.
 *
 * @example
 * const { output, error } = await executeWorkflow(
 *   { nodes: [startNode, prospectingNode], connections: { Start: { main: [[{ node: 'Prospecting', type: 'main', index: 0 }]] } } },
 *   { credentials: { prospectingApi: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } } },
 * );
 */
export async function executeWorkflow(
	workflow: TestWorkflow,
	options: ExecuteWorkflowOptions = {},
): Promise<WorkflowRunResult> {
	ensureEngine();
	const sink: LogSink = { lines: [] };
	return await withLogSink(sink, async () => await runInScope(workflow, options, sink));
}

async function runInScope(
	input: TestWorkflow,
	options: ExecuteWorkflowOptions,
	sink: LogSink,
): Promise<WorkflowRunResult> {
	// Workflow mutates node parameters (fills defaults); the caller's object stays untouched and reusable.
	const nodes = structuredClone(input.nodes);
	const connections = structuredClone(input.connections);
	const mode = options.mode ?? 'manual';
	workflowCounter += 1;
	const workflowId = `test-workflow-${workflowCounter}`;
	const settings: IWorkflowSettings = { executionOrder: 'v1', ...input.settings };

	const workflowInstance = new Workflow({
		id: workflowId,
		name: input.name ?? workflowId,
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings,
		staticData: structuredClone(input.staticData ?? {}),
	});

	const workflowData: IWorkflowBase = {
		id: workflowId,
		name: workflowInstance.name ?? workflowId,
		active: false,
		isArchived: false,
		activeVersionId: null,
		nodes,
		connections,
		settings,
		createdAt: new Date(),
		updatedAt: new Date(),
	};
	const executionId = nextExecutionId();
	const credentialsHelper = new TestCredentialsHelper(explicitCredentials(options));
	const additionalData = createAdditionalData({ executionId, mode, workflowData, credentialsHelper });
	const hooks = additionalData.hooks!;

	const executedNodes: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executedNodes.push(nodeName);
	});

	const startNode = pickStartNode(nodes, connections);
	const inputItems: INodeExecutionData[] = (options.inputItems ?? [{}]).map((json, index) => ({
		json,
		pairedItem: { item: index },
	}));
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: [inputItems] }, source: null }],
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	});

	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	let run: IRun;
	try {
		// Resolves after the workflowExecuteAfter hook, with the same full run data n8n would store.
		const running = workflowExecute.processRunExecutionData(workflowInstance);
		const stop = () => running.cancel();
		if (options.signal?.aborted) stop();
		options.signal?.addEventListener('abort', stop, { once: true });
		try {
			run = await running;
		} finally {
			options.signal?.removeEventListener('abort', stop);
		}
	} catch (error) {
		if (error instanceof WorkflowHasIssuesError) {
			// n8n refuses to start; say which node and parameter, as the editor would show them.
			const issues = workflowExecute.checkReadyForExecution(workflowInstance, { startNode: startNode.name });
			error.message += ` Issues: ${JSON.stringify(issues)}`;
		}
		throw error;
	}

	const { runData } = run.data.resultData;
	const storedError = run.data.resultData.error;
	const failingNode = run.data.resultData.lastNodeExecuted;
	const nodeError = failingNode ? runData[failingNode]?.at(-1)?.error : undefined;

	return {
		run,
		error: storedError ? reviveError(nodeError ?? storedError) : undefined,
		logs: sink.lines,
		executedNodes,
		staticData: workflowInstance.staticData,
		output(nodeName: string, outputIndex = 0): INodeExecutionData[] {
			const nodeRuns = runData[nodeName];
			if (!nodeRuns) {
				const ran = Object.keys(runData).join(', ') || 'none';
				const reason = storedError ? `; the execution stopped with: ${storedError.message}` : '';
				throw new ApplicationError(`Node "${nodeName}" did not run (nodes that ran: ${ran})${reason}`);
			}
			return nodeRuns.flatMap((taskData) => taskData.data?.main?.[outputIndex] ?? []);
		},
	};
}
