/**
 * Workflows the benchmark runs in real n8n. The alternative a user has without this package is
 * n8n's HTTP Request node with its own pagination and Retry On Fail at its maximum (5 tries, 5 s
 * apart: n8n clamps maxTries to 2..5 and waitBetweenTries to 0..5000 ms), authenticating with
 * n8n's generic Query Auth credential (apiKey in the query, as the service wants).
 *
 * Each workflow starts at a Webhook node that answers when the last node finishes, so one HTTP
 * call times the whole execution; a Summarize node at the end counts what the HTTP Request node
 * delivered (records and distinct ids).
 */
import type { WorkflowJson } from '../../scripts/lib/n8n-client';

export interface CredentialRef {
	id: string;
	name: string;
}

export interface HttpRequestVariant {
	/** Retry On Fail at n8n's maximum. */
	retry: { maxTries: number; waitBetweenTries: number };
	/** Interval between pages (pagination option), ms; 0 = none, as the node's default. */
	pageIntervalMs: number;
	/** Batching of input items (bulk create): one item per batch, this many ms apart; 0 = off. */
	batchIntervalMs: number;
}

export const RETRY_AT_MAXIMUM = { maxTries: 5, waitBetweenTries: 5000 };

const WEBHOOK_TYPE = 'n8n-nodes-base.webhook';

function webhookNode(path: string, webhookId: string) {
	return {
		id: `${webhookId}-hook`,
		name: 'Webhook',
		type: WEBHOOK_TYPE,
		typeVersion: 2,
		position: [0, 0],
		webhookId,
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			responseData: 'firstEntryJson',
			options: {},
		},
	};
}

function summarizeNode(position: number) {
	return {
		id: `summarize-${position}`,
		name: 'Count',
		type: 'n8n-nodes-base.summarize',
		typeVersion: 1.1,
		position: [position, 0],
		parameters: {
			fieldsToSummarize: {
				values: [
					{ aggregation: 'count', field: 'id' },
					{ aggregation: 'countUnique', field: 'id' },
				],
			},
			options: {},
		},
	};
}

function connect(...names: string[]) {
	const connections: Record<string, unknown> = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

function retrySettings(variant: HttpRequestVariant) {
	return { retryOnFail: true, maxTries: variant.retry.maxTries, waitBetweenTries: variant.retry.waitBetweenTries };
}

/** Walk: GET /leads with "Update a Parameter in Each Request" (page = $pageCount + 1) until page = totalPages. */
export function httpRequestWalkWorkflow(options: {
	name: string;
	path: string;
	sandboxUrl: string;
	pageSize: number;
	credential: CredentialRef;
	variant: HttpRequestVariant;
}): WorkflowJson {
	const pagination: Record<string, unknown> = {
		paginationMode: 'updateAParameterInEachRequest',
		parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }] },
		paginationCompleteWhen: 'other',
		completeExpression: '={{ $response.body.meta.page >= $response.body.meta.totalPages }}',
		limitPagesFetched: true,
		maxRequests: 10_000,
	};
	if (options.variant.pageIntervalMs > 0) pagination.requestInterval = options.variant.pageIntervalMs;
	return {
		name: options.name,
		nodes: [
			webhookNode(options.path, `${options.path}-id`),
			{
				id: 'http-walk',
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [200, 0],
				...retrySettings(options.variant),
				parameters: {
					method: 'GET',
					url: `${options.sandboxUrl}/api/v1/leads`,
					authentication: 'genericCredentialType',
					genericAuthType: 'httpQueryAuth',
					sendQuery: true,
					queryParameters: {
						parameters: [
							{ name: 'limit', value: String(options.pageSize) },
							{ name: 'orderBy', value: 'createdAt' },
							{ name: 'orderDirection', value: 'asc' },
						],
					},
					options: { pagination: { pagination } },
				},
				credentials: { httpQueryAuth: options.credential },
			},
			{
				id: 'split-data',
				name: 'Split Out',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [400, 0],
				parameters: { fieldToSplitOut: 'data', include: 'noOtherFields', options: {} },
			},
			summarizeNode(600),
		],
		connections: connect('Webhook', 'HTTP Request', 'Split Out', 'Count'),
		settings: { executionOrder: 'v1' },
	};
}

/** Bulk create: the webhook's body carries the items; POST /leads once per item. */
export function httpRequestBulkWorkflow(options: {
	name: string;
	path: string;
	sandboxUrl: string;
	credential: CredentialRef;
	variant: HttpRequestVariant;
}): WorkflowJson {
	const httpOptions: Record<string, unknown> = {};
	if (options.variant.batchIntervalMs > 0) {
		httpOptions.batching = { batch: { batchSize: 1, batchInterval: options.variant.batchIntervalMs } };
	}
	return {
		name: options.name,
		nodes: [
			webhookNode(options.path, `${options.path}-id`),
			{
				id: 'split-items',
				name: 'Items',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [200, 0],
				parameters: { fieldToSplitOut: 'body.items', include: 'noOtherFields', options: {} },
			},
			{
				id: 'http-create',
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [400, 0],
				...retrySettings(options.variant),
				parameters: {
					method: 'POST',
					url: `${options.sandboxUrl}/api/v1/leads`,
					authentication: 'genericCredentialType',
					genericAuthType: 'httpQueryAuth',
					sendBody: true,
					specifyBody: 'json',
					jsonBody:
						"={{ JSON.stringify({ name: $json.name, company: $json.company, emails: [{ value: $json.email, label: 'Principal' }] }) }}",
					options: httpOptions,
				},
				credentials: { httpQueryAuth: options.credential },
			},
			summarizeNode(600),
		],
		connections: connect('Webhook', 'Items', 'HTTP Request', 'Count'),
		settings: { executionOrder: 'v1' },
	};
}

/** The package's trigger alone: every verified delivery starts one execution. */
export function triggerWorkflow(options: {
	name: string;
	credential: CredentialRef;
	webhookId: string;
	options?: Record<string, unknown>;
	/** 1.1 unless given: version 1 makes n8n evaluate an expression on every request. */
	typeVersion?: number;
}): WorkflowJson {
	return {
		name: options.name,
		nodes: [
			{
				id: 'trigger',
				name: 'Prospecting Trigger',
				type: 'n8n-nodes-prospecting.prospectingTrigger',
				typeVersion: options.typeVersion ?? 1.1,
				position: [0, 0],
				webhookId: options.webhookId,
				parameters: { events: ['prospection.won', 'prospection.lost'], options: options.options ?? {} },
				credentials: { prospectingApi: options.credential },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** n8n's own Webhook node answering on receipt, no verification: what the trigger is measured against. */
export function plainWebhookWorkflow(name: string): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: 'plain-hook',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: 'bench-plain-webhook-id',
				parameters: { httpMethod: 'POST', path: PLAIN_WEBHOOK_PATH, responseMode: 'onReceived', options: {} },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

export const PLAIN_WEBHOOK_PATH = 'bench-plain';
