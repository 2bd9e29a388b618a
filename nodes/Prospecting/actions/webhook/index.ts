import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common.descriptions';
import * as create from './create.operation';
import * as deleteWebhook from './delete.operation';
import * as getMany from './getMany.operation';

export { getMany, create, deleteWebhook as delete };

export const description: INodeProperties[] = [
	operationSelector(
		'webhook',
		[
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
		'getMany',
	),
	...getMany.description,
	...create.description,
	...deleteWebhook.description,
];
