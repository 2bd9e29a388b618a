import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { PROSPECTION_STATUSES, prospectionStatusOptions } from '../../shared/statuses';
import { prospectionFilterCollections } from '../../shared/prospectionFilters.description';
import { listOptions, returnAllAndLimit } from '../common.descriptions';
import { listRecords } from '../listRecords';
import { optionalOneOf } from '../parameters';
import { prospectionScopeQuery } from './filters';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	...prospectionFilterCollections([
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'IN_PROGRESS',
			description: 'Only prospections in this state',
			options: prospectionStatusOptions,
		},
	]),
	listOptions({ order: 'free', orderFallback: 'createdAt', multiValue: true }),
];

const displayOptions = { show: { resource: ['prospection'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return await listRecords.call(this, i, {
		endpoint: '/prospections',
		orderFallback: 'createdAt',
		filterQuery: (filters) => ({
			// No status (or a blank one) means every status.
			status: optionalOneOf.call(
				this,
				i,
				'filters.status',
				filters.status,
				PROSPECTION_STATUSES,
				'IN_PROGRESS',
			),
			...prospectionScopeQuery.call(this, i, filters),
		}),
	});
}
