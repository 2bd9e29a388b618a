/**
 * Workflows that run the Prospecting node in process through n8n-core's WorkflowExecute (the test
 * harness's `executeWorkflow`), exactly as a user's workflow would: a start node feeding the node.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { executeWorkflow } from '../../dev/harness';
import { PROSPECTING_NODE_TYPE, START_NODE_TYPE } from '../../dev/harness';
import { measure, type Measured } from './measure';
import { MINIMAL_WALK_NODE_TYPE, registerMinimalWalk } from './minimal-node';

const NODE_NAME = 'Prospecting';

/**
 * Forgets the node's in-process rate budgets. The budget lives in module state, shared by every
 * execution of the process (as in n8n); the benchmark resets the sandbox's windows between figures,
 * so the node's idea of the window must start over too, as in a freshly started n8n.
 */
export function forgetRateBudgets(): void {
	const transport = require('../../nodes/Prospecting/transport/rateBudget') as { resetBudgets?: () => void };
	if (typeof transport.resetBudgets !== 'function') {
		throw new Error('nodes/Prospecting/transport/rateBudget no longer exports resetBudgets; the benchmark needs it between figures');
	}
	transport.resetBudgets();
}

function startNode(): INode {
	return { id: 'start', name: 'Start', type: START_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: {} };
}

function prospectingNode(parameters: IDataObject, type = PROSPECTING_NODE_TYPE): INode {
	return {
		id: 'prospecting',
		name: NODE_NAME,
		type,
		typeVersion: 1,
		position: [200, 0],
		parameters: parameters as INode['parameters'],
		credentials: { prospectingApi: { id: 'test-prospectingApi', name: 'Test prospectingApi' } },
	};
}

function workflowOf(parameters: IDataObject, type = PROSPECTING_NODE_TYPE) {
	return {
		nodes: [startNode(), prospectingNode(parameters, type)],
		connections: { Start: { main: [[{ node: NODE_NAME, type: 'main' as const, index: 0 }]] } },
	};
}

/** The credential's fields; the window tells the node the service's window length (the sandbox's, here). */
export type BenchCredentials = {
	baseUrl: string;
	apiKey: string;
	readsPerWindow?: number;
	writesPerWindow?: number;
	rateLimitWindowSeconds?: number;
};

export interface NodeRunResult {
	/** `id` of every output item, in output order. */
	ids: string[];
	items: number;
	error?: string;
}

/** Lead → Get Many with Return All: every page, in sequence. */
export async function nodeWalk(
	credentials: BenchCredentials,
	pageSize: number,
	keepIds = true,
): Promise<Measured<NodeRunResult>> {
	const workflow = workflowOf({
		resource: 'lead',
		operation: 'getMany',
		returnAll: true,
		options: { pageSize },
	});
	return await measure(async () => {
		const result = await executeWorkflow(workflow, { credentials: { prospectingApi: credentials } });
		const items = result.error ? [] : result.output(NODE_NAME);
		return {
			ids: keepIds ? items.map((item) => String(item.json.id)) : [],
			items: items.length,
			error: result.error?.message,
		};
	});
}

/** The same walk through a minimal node that uses only n8n-core's request helper (see minimal-node.ts). */
export async function minimalNodeWalk(
	credentials: BenchCredentials,
	pageSize: number,
): Promise<Measured<NodeRunResult>> {
	registerMinimalWalk();
	const workflow = workflowOf({ pageSize }, MINIMAL_WALK_NODE_TYPE);
	return await measure(async () => {
		const result = await executeWorkflow(workflow, { credentials: { prospectingApi: credentials } });
		const items = result.error ? [] : result.output(NODE_NAME);
		return { ids: [], items: items.length, error: result.error?.message };
	});
}

/** Lead → Create, once per input item (the input items carry name, company and email). */
export async function nodeBulkCreate(
	credentials: BenchCredentials,
	inputItems: IDataObject[],
): Promise<Measured<NodeRunResult>> {
	const workflow = workflowOf({
		resource: 'lead',
		operation: 'create',
		name: '={{ $json.name }}',
		company: '={{ $json.company }}',
		email: '={{ $json.email }}',
	});
	return await measure(async () => {
		const result = await executeWorkflow(workflow, {
			credentials: { prospectingApi: credentials },
			inputItems,
		});
		const items = result.error ? [] : result.output(NODE_NAME);
		return { ids: items.map((item) => String(item.json.id)), items: items.length, error: result.error?.message };
	});
}
