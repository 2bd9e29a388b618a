/** The read side of the list parameters in `common.descriptions.ts`: Return All, Limit and the list options. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { MultiValueFormat, PaginateOptions } from '../transport';
import { DEFAULT_PAGE_SIZE } from '../transport';
import { booleanValue, maxRateLimitWait, oneOf, optionalOneOf, positiveInteger, queryText } from './parameters';

/** Return All and Limit of a list, checked: `limit` is undefined when everything is wanted. */
export function returnAllAndLimitValues(
	this: IExecuteFunctions,
	i: number,
): { returnAll: boolean; limit: number | undefined } {
	const returnAll = booleanValue.call(
		this,
		i,
		'returnAll',
		this.getNodeParameter('returnAll', i, false),
		false,
	);
	const limit = returnAll
		? undefined
		: positiveInteger.call(this, i, 'limit', this.getNodeParameter('limit', i, 50), 50);
	return { returnAll, limit };
}

/**
 * Reads Return All, Limit and the list options of item `i` into pagination settings.
 * `orderFallback` is the order applied when the user sets none ('' for no order).
 */
export function listSettings(
	this: IExecuteFunctions,
	i: number,
	orderFallback = '',
): { paginate: PaginateOptions; options: IDataObject } {
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const { returnAll, limit } = returnAllAndLimitValues.call(this, i);
	const pageSize = positiveInteger.call(
		this,
		i,
		'options.pageSize',
		options.pageSize,
		DEFAULT_PAGE_SIZE,
	);
	const qs: IDataObject = {};
	const orderBy =
		queryText.call(this, i, 'options.orderBy', options.orderBy ?? orderFallback) || orderFallback;
	const orderDirection = optionalOneOf.call(
		this,
		i,
		'options.orderDirection',
		options.orderDirection,
		['asc', 'desc'] as const,
		'asc',
	);
	if (orderBy) qs.orderBy = orderBy;
	if (orderBy || orderDirection) qs.orderDirection = orderDirection ?? 'asc';
	const multiValueFormat = oneOf.call(
		this,
		i,
		'options.multiValueFormat',
		options.multiValueFormat,
		['repeat', 'brackets', 'comma'] as const,
		'repeat',
	) as MultiValueFormat;
	return {
		options,
		paginate: {
			returnAll,
			limit,
			pageSize,
			qs,
			itemIndex: i,
			multiValueFormat,
			maxRateLimitWaitSeconds: maxRateLimitWait.call(this, i, options),
		},
	};
}
