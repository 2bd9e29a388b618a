import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['customField'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many custom fields',
				action: 'Get many custom fields of the account',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
