import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common.descriptions';
import * as getActivities from './getActivities.operation';
import * as getConversionRate from './getConversionRate.operation';
import * as getMany from './getMany.operation';

export { getMany, getActivities, getConversionRate };

export const description: INodeProperties[] = [
	operationSelector(
		'prospection',
		[
			{
				name: 'Get Activities',
				value: 'getActivities',
				description: 'Get the activities of a prospection',
				action: 'Get the activities of a prospection such as calls and messages by its ID',
			},
			{
				name: 'Get Conversion Rate',
				value: 'getConversionRate',
				description: 'Get the conversion rate of prospections',
				action: 'Get the conversion rate of prospections as won divided by won plus lost with both counts',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many prospections',
				action: 'Get many prospections with their status and lead ID',
			},
		],
		'getMany',
	),
	...getMany.description,
	...getActivities.description,
	...getConversionRate.description,
];
