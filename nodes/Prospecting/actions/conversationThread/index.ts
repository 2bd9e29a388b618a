import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common.descriptions';
import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	operationSelector(
		'conversationThread',
		[
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many conversation threads',
				action: 'Get many conversation threads of the account',
			},
		],
		'getMany',
	),
	...getMany.description,
];
