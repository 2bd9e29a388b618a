/**
 * Workflows the suite imports into n8n, one per resource: a Webhook node (so that a plain HTTP call runs the
 * workflow in production mode and answers when it has finished) followed by one Prospecting node per operation.
 * Nodes after a list run once (executeOnce), so each operation runs exactly once per call.
 */
import { randomUUID } from 'node:crypto';

import type { WorkflowJson } from '../../../scripts/lib/n8n-client';

export const PROSPECTING = 'n8n-nodes-prospecting.prospecting';

type Node = WorkflowJson['nodes'][number];

export function webhookTrigger(path: string, method: 'GET' | 'POST' = 'POST'): Node {
	return {
		id: randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { httpMethod: method, path, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
	};
}

/** The name n8n gives the Manual Trigger, the node the editor's Execute workflow starts from. */
export const MANUAL_TRIGGER = 'When clicking Execute workflow';

export function manualTrigger(): Node {
	return {
		id: randomUUID(),
		name: MANUAL_TRIGGER,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

export function prospectingNode(
	name: string,
	parameters: Record<string, unknown>,
	options: { executeOnce?: boolean } = {},
): Node {
	return {
		id: randomUUID(),
		name,
		type: PROSPECTING,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { prospectingApi: { id: '', name: 'Prospecting API' } },
		...(options.executeOnce ? { executeOnce: true } : {}),
	};
}

/** A straight chain: each node feeds the next. */
export function chainWorkflow(name: string, nodes: Node[]): WorkflowJson {
	const connections: Record<string, unknown> = {};
	nodes.forEach((node, index) => {
		node.position = [index * 240, 0];
		const next = nodes[index + 1];
		if (next) connections[node.name] = { main: [[{ node: next.name, type: 'main', index: 0 }]] };
	});
	return { name, nodes, connections, settings: { executionOrder: 'v1' } };
}

/** n8n's own HTTP Request node authenticating with the package's credential (generic auth: apiKey query parameter). */
export function httpRequestWithCredential(name: string, url: string): Node {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [0, 0],
		parameters: {
			method: 'GET',
			url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'prospectingApi',
			options: {},
		},
		credentials: { prospectingApi: { id: '', name: 'Prospecting API' } },
	};
}

const body = (field: string) => `={{ $('Webhook').first().json.body.${field} }}`;

/** Lead → Create with the posted body's name, company, e-mail and phone. */
const createLeadFromBody = {
	resource: 'lead',
	operation: 'create',
	name: body('name'),
	company: body('company'),
	email: body('email'),
	phone: body('phone'),
	additionalFields: {},
};

export const resourceWorkflows = {
	lead: chainWorkflow('E2E lead', [
		webhookTrigger('e2e-lead'),
		prospectingNode('Create lead', { ...createLeadFromBody, options: {} }),
		prospectingNode(
			'Create lead again, skip if it exists',
			{ ...createLeadFromBody, options: { skipIfExists: true } },
			{ executeOnce: true },
		),
		prospectingNode(
			'Search leads',
			{ resource: 'lead', operation: 'getMany', returnAll: true, filters: { search: body('email') }, options: {} },
			{ executeOnce: true },
		),
		prospectingNode(
			'Get three leads',
			{ resource: 'lead', operation: 'getMany', returnAll: false, limit: 3, filters: {}, options: {} },
			{ executeOnce: true },
		),
	]),
	routine: chainWorkflow('E2E routine', [
		webhookTrigger('e2e-routine'),
		prospectingNode('Get all routines', { resource: 'routine', operation: 'getMany', returnAll: true, filters: {}, options: {} }),
		prospectingNode(
			'Add lead to routine',
			{
				resource: 'routine',
				operation: 'addLead',
				routineId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				leadId: body('leadId'),
				responsibleId: '',
				options: {},
			},
			{ executeOnce: true },
		),
	]),
	prospection: chainWorkflow('E2E prospection', [
		webhookTrigger('e2e-prospection'),
		prospectingNode('Get all prospections', {
			resource: 'prospection',
			operation: 'getMany',
			returnAll: true,
			filters: {},
			options: {},
		}),
		prospectingNode(
			'Get activities',
			{ resource: 'prospection', operation: 'getActivities', prospectionId: '={{ $json.id }}', returnAll: true, options: {} },
			{ executeOnce: true },
		),
		prospectingNode(
			'Get won prospections',
			{ resource: 'prospection', operation: 'getMany', returnAll: true, filters: { status: 'WON' }, options: {} },
			{ executeOnce: true },
		),
		prospectingNode(
			'Get conversion rate',
			{ resource: 'prospection', operation: 'getConversionRate', filters: {}, options: {} },
			{ executeOnce: true },
		),
	]),
	customField: chainWorkflow('E2E custom field', [
		webhookTrigger('e2e-custom-field'),
		prospectingNode('Get all custom fields', { resource: 'customField', operation: 'getMany', returnAll: true, options: {} }),
		{
			...httpRequestWithCredential('HTTP Request with the credential', `={{ $('Webhook').first().json.body.baseUrl }}/api/v1/custom-fields?limit=1`),
			executeOnce: true,
		},
	]),
	conversationThread: chainWorkflow('E2E conversation thread', [
		webhookTrigger('e2e-conversation-thread'),
		prospectingNode('Get WhatsApp threads', {
			resource: 'conversationThread',
			operation: 'getMany',
			returnAll: true,
			filters: { channel: 'WHATSAPP' },
			options: {},
		}),
	]),
	webhook: chainWorkflow('E2E webhook', [
		webhookTrigger('e2e-webhook'),
		prospectingNode('Create webhook', {
			resource: 'webhook',
			operation: 'create',
			name: 'E2E receiver',
			url: body('url'),
			events: ['prospection.won', 'prospection.lost'],
			additionalFields: {},
			options: {},
		}),
		prospectingNode('Get all webhooks', { resource: 'webhook', operation: 'getMany', returnAll: true, options: {} }, { executeOnce: true }),
		prospectingNode(
			'Delete webhook',
			{ resource: 'webhook', operation: 'delete', webhookId: "={{ $('Create webhook').first().json.id }}", options: {} },
			{ executeOnce: true },
		),
	]),
};
