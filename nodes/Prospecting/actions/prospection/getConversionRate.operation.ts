import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MultiValueFormat } from '../../helpers/account';
import { prospectingApiPaginate } from '../../shared/pagination';
import { prospectingApiRequest } from '../../transport/request';
import { prospectionFilterCollections } from '../../shared/prospectionFilters.description';
import { additionalQueryOption, maxRateLimitWaitOptions, multiValueFormatOption } from '../common.descriptions';
import { readMultiValueFormat } from '../listSettings';
import { additionalQuery, maxRateLimitWait } from '../parameters';
import { prospectionScopeQuery } from './filters';

const properties: INodeProperties[] = [
	...prospectionFilterCollections(),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [additionalQueryOption, ...maxRateLimitWaitOptions, multiValueFormatOption],
	},
];

const displayOptions = { show: { resource: ['prospection'], operation: ['getConversionRate'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Counts the prospections in one status from the `total` of a one-record page. A service that
 * sends no total is counted by walking the list instead.
 */
async function countByStatus(
	this: IExecuteFunctions,
	i: number,
	status: 'WON' | 'LOST',
	qs: IDataObject,
	settings: { multiValueFormat: MultiValueFormat; maxRateLimitWaitSeconds: number; deadlineAt?: number },
): Promise<number> {
	const query = { ...qs, status };
	const body = await prospectingApiRequest.call(this, 'GET', '/prospections', {
		qs: { ...query, limit: 1, page: 1 },
		itemIndex: i,
		...settings,
	});
	const total = Number((body?.meta as IDataObject | undefined)?.total);
	if (body?.meta && Number.isFinite(total) && total >= 0) return total;
	const records = await prospectingApiPaginate.call(this, '/prospections', {
		returnAll: true,
		qs: { ...query, orderBy: 'createdAt', orderDirection: 'asc' },
		itemIndex: i,
		...settings,
	});
	return records.length;
}

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const settings = {
		multiValueFormat: readMultiValueFormat.call(this, i, options),
		...maxRateLimitWait.call(this, i, options),
	};
	const qs: IDataObject = {
		...prospectionScopeQuery.call(this, i, filters),
		...additionalQuery.call(this, i, options),
	};
	const won = await countByStatus.call(this, i, 'WON', qs, settings);
	const lost = await countByStatus.call(this, i, 'LOST', qs, settings);
	const decided = won + lost;
	// The spec treats the rate as 0 when nothing is decided yet.
	const conversionRate = decided === 0 ? 0 : won / decided;
	return [{ json: { won, lost, decided, conversionRate } }];
}
