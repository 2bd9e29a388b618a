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
import { chain, n8nNode, splitItemsNode, webhookNode } from '../lib/workflow-parts';

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

/** Answers when the last node finishes, so one HTTP call times the whole execution. */
const webhook = (path: string) => webhookNode(path, { responseMode: 'lastNode', responseData: 'firstEntryJson' });

function summarizeNode(x: number) {
	return n8nNode(`summarize-${x}`, 'Count', 'n8n-nodes-base.summarize', 1.1, x, {
		fieldsToSummarize: {
			values: [
				{ aggregation: 'count', field: 'id' },
				{ aggregation: 'countUnique', field: 'id' },
			],
		},
		options: {},
	});
}

/** n8n's HTTP Request node calling the sandbox's leads with Query Auth (apiKey), Retry On Fail as the variant says. */
function httpRequestNode(x: number, options: { credential: CredentialRef; variant: HttpRequestVariant }, parameters: Record<string, unknown>) {
	return {
		...n8nNode(`http-${x}`, 'HTTP Request', 'n8n-nodes-base.httpRequest', 4.2, x, {
			authentication: 'genericCredentialType',
			genericAuthType: 'httpQueryAuth',
			...parameters,
		}),
		retryOnFail: true,
		maxTries: options.variant.retry.maxTries,
		waitBetweenTries: options.variant.retry.waitBetweenTries,
		credentials: { httpQueryAuth: options.credential },
	};
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
			webhook(options.path),
			httpRequestNode(200, options, {
				method: 'GET',
				url: `${options.sandboxUrl}/api/v1/leads`,
				sendQuery: true,
				queryParameters: {
					parameters: [
						{ name: 'limit', value: String(options.pageSize) },
						{ name: 'orderBy', value: 'createdAt' },
						{ name: 'orderDirection', value: 'asc' },
					],
				},
				options: { pagination: { pagination } },
			}),
			n8nNode('split-data', 'Split Out', 'n8n-nodes-base.splitOut', 1, 400, { fieldToSplitOut: 'data', include: 'noOtherFields', options: {} }),
			summarizeNode(600),
		],
		connections: chain('Webhook', 'HTTP Request', 'Split Out', 'Count'),
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
			webhook(options.path),
			splitItemsNode(200),
			httpRequestNode(400, options, {
				method: 'POST',
				url: `${options.sandboxUrl}/api/v1/leads`,
				sendBody: true,
				specifyBody: 'json',
				jsonBody: "={{ JSON.stringify({ name: $json.name, company: $json.company, emails: [{ value: $json.email, label: 'Principal' }] }) }}",
				options: httpOptions,
			}),
			summarizeNode(600),
		],
		connections: chain('Webhook', 'Items', 'HTTP Request', 'Count'),
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
