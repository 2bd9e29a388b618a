import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { prospectingApiPaginate } from '../../transport';
import { listOptions, returnAllAndLimit } from '../common.descriptions';
import { listSettings } from '../listSettings';
import { toItems } from '../output';
import { additionalQuery } from '../parameters';
import { pathSegment } from '../pathSegment';

const properties: INodeProperties[] = [
	{
		displayName: 'Prospection ID',
		name: 'prospectionId',
		type: 'string',
		required: true,
		default: '',
		description: 'The prospection whose activities (calls, messages, emails) to list',
	},
	...returnAllAndLimit,
	listOptions({ order: 'free' }),
];

const displayOptions = { show: { resource: ['prospection'], operation: ['getActivities'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const rawId = this.getNodeParameter('prospectionId', i, '') as unknown;
	const id = pathSegment(this.getNode(), i, 'prospectionId', rawId);
	const { paginate, options } = listSettings.call(this, i);
	const qs: IDataObject = { ...paginate.qs, ...additionalQuery.call(this, i, options) };
	const activities = await prospectingApiPaginate.call(this, `/prospections/${id}/activities`, {
		...paginate,
		qs,
		recordLabel: `Prospection "${String(rawId).trim()}"`,
	});
	return toItems(activities);
}
