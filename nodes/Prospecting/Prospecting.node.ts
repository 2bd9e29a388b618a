import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as conversationThread from './actions/conversationThread';
import * as customField from './actions/customField';
import * as lead from './actions/lead';
import * as prospection from './actions/prospection';
import * as routine from './actions/routine';
import { router } from './actions/router';
import * as webhook from './actions/webhook';
import { listSearch } from './methods';
import { toolErrorsProperty } from './actions/common.descriptions';

export class Prospecting implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Prospecting',
		name: 'prospecting',
		icon: { light: 'file:prospecting.svg', dark: 'file:prospecting.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle:
			'={{$parameter["operation"] + ": " + $parameter["resource"] + ($parameter["dryRun"] === "always" ? " (dry run)" : $parameter["dryRun"] === "never" ? " (sends in manual runs)" : "")}}',
		description:
			'Create leads, add them to routines (Cadências) and read prospections, activities and conversion rates',
		defaults: { name: 'Prospecting' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'prospectingApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Conversation Thread', value: 'conversationThread' },
					{ name: 'Custom Field', value: 'customField' },
					{ name: 'Lead', value: 'lead' },
					{ name: 'Prospection', value: 'prospection' },
					{ name: 'Routine', value: 'routine' },
					{ name: 'Webhook', value: 'webhook' },
				],
				default: 'lead',
			},
			...lead.description,
			...routine.description,
			...prospection.description,
			...customField.description,
			...conversationThread.description,
			...webhook.description,
			toolErrorsProperty,
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
