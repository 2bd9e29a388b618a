import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';
import * as create from './create.operation';
import * as deleteWebhook from './delete.operation';

export { getMany, create, deleteWebhook as delete };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a webhook',
				action: 'Create a webhook that posts events to a URL and return its secret once',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a webhook',
				action: 'Delete a webhook by its ID',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many webhooks',
				action: 'Get many webhooks of the account',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
	...create.description,
	...deleteWebhook.description,
];
