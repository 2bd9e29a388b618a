import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common.descriptions';
import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	operationSelector(
		'customField',
		[
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many custom fields',
				action: 'Get many custom fields of the account',
			},
		],
		'getMany',
	),
	...getMany.description,
];
