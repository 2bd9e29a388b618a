import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { prospectingApiPaginate } from '../../transport';
import { listOptions, returnAllAndLimit } from '../common.descriptions';
import { additionalQuery, listSettings, oneOf, toItems } from '../helpers';
import { prospectionFilterCollections, prospectionScopeQuery } from './filters';
import { PROSPECTION_STATUSES, prospectionStatusOptions } from './statuses';

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
	const { paginate, options } = listSettings.call(this, i, 'createdAt');
	const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
	const qs: IDataObject = {
		...paginate.qs,
		// No status (or a blank one) means every status.
		status:
			typeof filters.status === 'string' && filters.status.trim() === ''
				? undefined
				: filters.status === undefined
					? undefined
					: oneOf.call(
							this,
							i,
							'filters.status',
							filters.status,
							PROSPECTION_STATUSES,
							'IN_PROGRESS',
						),
		...prospectionScopeQuery.call(this, i, filters),
		...additionalQuery.call(this, i, options),
	};
	const prospections = await prospectingApiPaginate.call(this, '/prospections', {
		...paginate,
		qs,
	});
	return toItems(prospections);
}
