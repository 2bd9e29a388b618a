import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common.descriptions';
import * as create from './create.operation';
import * as getMany from './getMany.operation';

export { create, getMany };

export const description: INodeProperties[] = [
	operationSelector(
		'lead',
		[
			{
				name: 'Create',
				value: 'create',
				description: 'Create a lead',
				action: 'Create a lead from a name and company with at least one email or phone and return the new lead with its ID',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many leads',
				action: 'Get many leads whose name or company or email or phone match a search text and return their ID and contacts',
			},
		],
		'create',
	),
	...create.description,
	...getMany.description,
];
