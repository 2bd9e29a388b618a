/**
 * Workflows the queue-mode benchmark runs on n8n's workers. Each starts at a Webhook node (called at the webhook
 * processor) and answers through a Respond to Webhook node, so the worker sends the answer over the queue and no
 * process reads the execution back from the database; successful executions are not saved (their data would be
 * the whole walk), failed ones are. An Aggregate node turns the node's output into one list of ids, which the
 * benchmark checks against the sandbox (duplicates, gaps).
 */
import type { WorkflowJson } from '../../scripts/lib/n8n-client';
import { chain, n8nNode, splitItemsNode, webhookNode } from '../lib/workflow-parts';

const PROSPECTING = 'n8n-nodes-prospecting.prospecting';

interface Credential {
	id: string;
	name: string;
}

const webhook = (path: string) => webhookNode(path, { responseMode: 'responseNode' });

const collectIds = (x: number) =>
	n8nNode(`collect-${x}`, 'Collect ids', 'n8n-nodes-base.aggregate', 1, x, {
		aggregate: 'aggregateIndividualFields',
		fieldsToAggregate: { fieldToAggregate: [{ fieldToAggregate: 'id' }] },
		options: {},
	});

const respond = (x: number) =>
	n8nNode(`respond-${x}`, 'Respond', 'n8n-nodes-base.respondToWebhook', 1.1, x, { respondWith: 'firstIncomingItem', options: {} });

const settings = { executionOrder: 'v1', saveDataSuccessExecution: 'none', saveDataErrorExecution: 'all', saveManualExecutions: false };

/** Lead → Get Many, Return All, pages of `pageSize`. */
export function walkWorkflow(path: string, credential: Credential, pageSize: number): WorkflowJson {
	return {
		name: `Queue bench: walk (${path})`,
		nodes: [
			webhook(path),
			{
				id: 'walk',
				name: 'Get all leads',
				type: PROSPECTING,
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'lead', operation: 'getMany', returnAll: true, filters: {}, options: { pageSize } },
				credentials: { prospectingApi: credential },
			},
			collectIds(400),
			respond(600),
		],
		connections: chain('Webhook', 'Get all leads', 'Collect ids', 'Respond'),
		settings,
	};
}

/** The posted `items` (name, company, email) → Lead → Create, one lead per item. */
export function bulkCreateWorkflow(path: string, credential: Credential): WorkflowJson {
	return {
		name: `Queue bench: bulk create (${path})`,
		nodes: [
			webhook(path),
			splitItemsNode(200),
			{
				id: 'create',
				name: 'Create leads',
				type: PROSPECTING,
				typeVersion: 1,
				position: [400, 0],
				parameters: {
					resource: 'lead',
					operation: 'create',
					name: '={{ $json.name }}',
					company: '={{ $json.company }}',
					email: '={{ $json.email }}',
					additionalFields: {},
					options: {},
				},
				credentials: { prospectingApi: credential },
			},
			collectIds(600),
			respond(800),
		],
		connections: chain('Webhook', 'Items', 'Create leads', 'Collect ids', 'Respond'),
		settings,
	};
}
