import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection, multiValueFilter, textFilter } from '../../shared/filters.description';
import { listOptions, returnAllAndLimit } from '../common.descriptions';
import { listRecords } from '../listRecords';
import { multiValues, queryText } from '../parameters';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	filtersCollection([
		multiValueFilter(
			'Acquisition Types',
			'acquisitionTypes',
			'routines of these acquisition types',
		),
		multiValueFilter('Priorities', 'priorities', 'routines with these priorities'),
		textFilter('Status', 'status', 'Only routines with this status, as the service names it'),
	]),
	listOptions({ order: 'free', multiValue: true }),
];

const displayOptions = { show: { resource: ['routine'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return await listRecords.call(this, i, {
		endpoint: '/routines',
		filterQuery: (filters) => ({
			status: queryText.call(this, i, 'filters.status', filters.status),
			priorities: multiValues.call(this, i, 'filters.priorities', filters.priorities),
			acquisitionTypes: multiValues.call(
				this,
				i,
				'filters.acquisitionTypes',
				filters.acquisitionTypes,
			),
		}),
	});
}
