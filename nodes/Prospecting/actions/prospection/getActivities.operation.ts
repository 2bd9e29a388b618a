import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listOptions, returnAllAndLimit } from '../common.descriptions';
import { listRecords } from '../listRecords';
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
	return await listRecords.call(this, i, {
		endpoint: `/prospections/${id}/activities`,
		recordLabel: `Prospection "${String(rawId).trim()}"`,
	});
}
