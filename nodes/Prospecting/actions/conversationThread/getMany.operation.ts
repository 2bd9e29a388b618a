import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { prospectingApiPaginate } from '../../transport';
import { filtersCollection, listOptions, returnAllAndLimit } from '../common.descriptions';
import { listSettings } from '../listSettings';
import { toItems } from '../output';
import { additionalQuery, optionalOneOf, queryName } from '../parameters';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	filtersCollection(
		[
			{
				displayName: 'Channel',
				name: 'channel',
				type: 'options',
				default: 'WHATSAPP',
				description: 'Only threads of this channel',
				options: [
					{ name: 'Email', value: 'EMAIL' },
					{ name: 'WhatsApp', value: 'WHATSAPP' },
		],
	},
	],
),
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
const { paginate, options } = listSettings.call(this, i);
const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
const qs: IDataObject = { ...paginate.qs };
const channel = optionalOneOf.call(
	this,
	i,
	'filters.channel',
	filters.channel,
	['WHATSAPP', 'EMAIL'] as const,
	'WHATSAPP',
);
if (channel) {
	const parameterName = queryName.call(
		this,
		i,
		'options.channelParameterName',
		options.channelParameterName ?? 'channel',
	);
	qs[parameterName] = channel;
}
Object.assign(qs, additionalQuery.call(this, i, options));
const threads = await prospectingApiPaginate.call(this, '/conversations/threads', {
	...paginate,
	qs,
});
return toItems(threads);
}
