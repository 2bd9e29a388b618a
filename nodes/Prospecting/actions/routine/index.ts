import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common.descriptions';
import * as addLead from './addLead.operation';
import * as getMany from './getMany.operation';

export { getMany, addLead };

export const description: INodeProperties[] = [
	operationSelector(
		'routine',
		[
			{
				name: 'Add Lead',
				value: 'addLead',
				description: 'Add a lead to a routine',
				action: 'Add a lead to a routine by lead ID and routine ID which can start prospecting the lead',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many routines',
				action: 'Get many routines with the ID needed to add a lead to one of them',
			},
		],
		'getMany',
	),
	...getMany.description,
	...addLead.description,
];
