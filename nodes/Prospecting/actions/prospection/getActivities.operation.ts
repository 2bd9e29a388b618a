import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listOptions, returnAllAndLimit } from '../common.descriptions';
import { listRecords } from '../listRecords';
import { pathSegment } from '../pathSegment';
import { recordLocator } from '../../shared/recordLocator';
import { FROM_VERSION_2, inVersions, VERSION_1_ONLY } from '../../shared/versions';

const properties: INodeProperties[] = [
	inVersions(VERSION_1_ONLY, {
		displayName: 'Prospection ID',
		name: 'prospectionId',
		type: 'string',
		required: true,
		default: '',
		description: 'The prospection whose activities (calls, messages, emails) to list',
	}),
	inVersions(
		FROM_VERSION_2,
		recordLocator({
			displayName: 'Prospection',
			name: 'prospectionId',
			searchListMethod: 'searchProspections',
			required: true,
			description:
				'The prospection whose activities (calls, messages, emails) to list. Newest first; search by lead ID, status or date.',
		}),
	),
	...returnAllAndLimit,
	listOptions({ order: 'free' }),
];

const displayOptions = { show: { resource: ['prospection'], operation: ['getActivities'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const rawId = this.getNodeParameter('prospectionId', i, '', { extractValue: true }) as unknown;
	const id = pathSegment(this.getNode(), i, 'prospectionId', rawId);
	return await listRecords.call(this, i, {
		endpoint: `/prospections/${id}/activities`,
		recordLabel: `Prospection "${String(rawId).trim()}"`,
	});
}
