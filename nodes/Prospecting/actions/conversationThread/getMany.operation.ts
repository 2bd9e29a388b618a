import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection } from '../../shared/filters.description';
import { listOptions, returnAllAndLimit } from '../common.descriptions';
import { listRecords } from '../listRecords';
import { optionalOneOf, queryName } from '../parameters';

const CHANNELS = ['WHATSAPP', 'EMAIL'] as const;

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	filtersCollection([
		{
			displayName: 'Channel',
			name: 'channel',
			type: 'options',
			default: 'WHATSAPP',
			description: 'Only threads of this channel',
			options: [{ name: 'Email', value: 'EMAIL' }, { name: 'WhatsApp', value: 'WHATSAPP' }],
		},
	]),
	listOptions({
		order: 'free',
		extra: [
			{
				displayName: 'Channel Parameter Name',
				name: 'channelParameterName',
				type: 'string',
				default: 'channel',
				description:
					'Name of the query parameter that carries the channel filter. The service does not publish it; change it if the filter has no effect.',
			},
		],
	}),
];

const displayOptions = { show: { resource: ['conversationThread'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return await listRecords.call(this, i, {
		endpoint: '/conversations/threads',
		filterQuery: (filters, options) => {
			const field = 'filters.channel';
			const channel = optionalOneOf.call(this, i, field, filters.channel, CHANNELS, 'WHATSAPP');
			if (!channel) return {};
			const parameterName = queryName.call(
				this,
				i,
				'options.channelParameterName',
				options.channelParameterName ?? 'channel',
			);
			return { [parameterName]: channel };
		},
	});
}
