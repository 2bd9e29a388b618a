import type { IHookFunctions, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { receiveDelivery } from './trigger/delivery';
import { checkWebhookExists, createWebhook, deleteWebhook } from './trigger/lifecycle';

export class ProspectingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Prospecting Trigger',
		name: 'prospectingTrigger',
		icon: { light: 'file:prospecting.svg', dark: 'file:prospecting.dark.svg' },
		group: ['trigger'],
		// 1.1 behaves exactly as 1. n8n evaluates an expression for the "binary data" option of every
		// webhook start node at version 1 on each request (in its expression isolate, several ms per
		// delivery); from 1.1 on it skips that, so new nodes are placed at 1.1.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{($parameter["events"] || []).join(", ")}}',
		description: 'Starts the workflow when a prospection is won or lost, from signed webhook deliveries',
		defaults: {
			name: 'Prospecting Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'prospectingApi',
				required: true,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['prospection.won', 'prospection.lost'],
				description: 'The events that start the workflow',
				options: [
					{
						name: 'Prospection Lost',
						value: 'prospection.lost',
						description: 'A prospection is closed without a sale (status LOST, Perdida)',
					},
					{
						name: 'Prospection Won',
						value: 'prospection.won',
						description: 'A prospection is concluded with a conversion (status WON, Ganha)',
					},
				],
			},
			{
				displayName: 'Other Events',
				name: 'otherEvents',
				type: 'string',
				default: '',
				placeholder: 'e.g. lead.created, routine.finished',
				description:
					'More event kinds to subscribe to, separated by commas, for kinds the service offers beyond those above',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Ignore Repeated Deliveries',
						name: 'ignoreRepeatedDeliveries',
						type: 'boolean',
						default: true,
						description:
							'Whether a delivery of an event this node already received (same event ID, as retries send) is acknowledged without starting the workflow again. The most recent 500 event IDs are remembered.',
					},
					{
						displayName: 'Include Test Deliveries',
						name: 'includeTestDeliveries',
						type: 'boolean',
						default: true,
						description:
							'Whether deliveries the service marks as test (test: true) start the workflow. When off they are acknowledged and ignored.',
					},
					{
						displayName: 'Output',
						name: 'output',
						type: 'options',
						default: 'envelope',
						description: 'What each delivery outputs',
						options: [
							{
								name: 'Data Only',
								value: 'data',
								description: 'Only the event payload (data), e.g. the prospection and its lead',
							},
							{
								name: 'Whole Envelope',
								value: 'envelope',
								description:
									'ID, test, event, data, retries, manualRetries and createdAt of the delivery',
							},
						],
					},
					{
						displayName: 'Signature Header',
						name: 'signatureHeader',
						type: 'string',
						default: '',
						placeholder: 'e.g. x-signature',
						description:
							'Name of the request header that carries the delivery signature. Leave empty to accept the signature from whichever header carries a matching one.',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkWebhookExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await createWebhook.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteWebhook.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery.call(this);
	}
}
