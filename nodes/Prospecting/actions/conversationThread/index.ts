import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['conversationThread'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many conversation threads',
				action: 'Get many conversation threads of the account',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
