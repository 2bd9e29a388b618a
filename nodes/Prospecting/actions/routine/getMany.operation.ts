import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { prospectingApiPaginate } from '../../transport';
import { filtersCollection, listOptions, multiValueFilter, returnAllAndLimit } from '../common.descriptions';
import { listSettings } from '../listSettings';
import { toItems } from '../output';
import { additionalQuery, multiValues, queryText } from '../parameters';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	filtersCollection(
		[
			multiValueFilter(
				'Acquisition Types',
				'acquisitionTypes',
				'routines of these acquisition types',
			),
			multiValueFilter('Priorities', 'priorities', 'routines with these priorities'),
			{
				displayName: 'Status',
				name: 'status',
				type: 'string',
				default: '',
				description: 'Only routines with this status, as the service names it',
			},
		],
	),
	listOptions({ order: 'free', multiValue: true }),
];

const displayOptions = { show: { resource: ['routine'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const { paginate, options } = listSettings.call(this, i);
	const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
	const qs: IDataObject = {
		...paginate.qs,
		status: queryText.call(this, i, 'filters.status', filters.status),
		priorities: multiValues.call(this, i, 'filters.priorities', filters.priorities),
		acquisitionTypes: multiValues.call(
			this,
			i,
			'filters.acquisitionTypes',
			filters.acquisitionTypes,
		),
		...additionalQuery.call(this, i, options),
	};
	const routines = await prospectingApiPaginate.call(this, '/routines', { ...paginate, qs });
	return toItems(routines);
}
