import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { prospectingApiPaginate } from '../shared/pagination';
import { listSettings } from './listSettings';
import { toItems } from './output';
import { additionalQuery } from './parameters';

/** The query a list builds from the item's Filters (and Options, where a filter is tuned there). */
export type FilterQuery = (filters: IDataObject, options: IDataObject) => IDataObject;

export interface ListRequest {
	endpoint: string;
	/** Order applied when the user sets none ('' or absent for no order). */
	orderFallback?: string;
	filterQuery?: FilterQuery;
	/** Names the parent record in a 404, for lists under one record. */
	recordLabel?: string;
}

/** A list operation for item `i`: its list settings, filters and Additional Query Parameters, then the pages asked for. */
export async function listRecords(
	this: IExecuteFunctions,
	i: number,
	request: ListRequest,
): Promise<INodeExecutionData[]> {
	const { paginate, options } = listSettings.call(this, i, request.orderFallback);
	const filters = request.filterQuery
		? (this.getNodeParameter('filters', i, {}) as IDataObject)
		: {};
	const qs: IDataObject = {
		...paginate.qs,
		...(request.filterQuery ? request.filterQuery(filters, options) : {}),
		...additionalQuery.call(this, i, options),
	};
	const records = await prospectingApiPaginate.call(this, request.endpoint, {
		...paginate,
		qs,
		...(request.recordLabel ? { recordLabel: request.recordLabel } : {}),
	});
	return toItems(records);
}
