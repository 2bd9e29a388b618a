/** The read side of the list parameters in `common.descriptions.ts`: Return All, Limit and the list options. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { MultiValueFormat } from '../helpers/account';
import type { PaginateOptions } from '../shared/pagination';
import { DEFAULT_PAGE_SIZE } from '../shared/pagination';
import { booleanValue, maxRateLimitWait, oneOf, optionalOneOf, positiveInteger, queryText } from './parameters';

const ORDER_DIRECTIONS = ['asc', 'desc'] as const;
const MULTI_VALUE_FORMATS: readonly MultiValueFormat[] = ['repeat', 'brackets', 'comma'];

/** How multi-value query parameters are written, from the Options collection. */
export function readMultiValueFormat(
	this: IExecuteFunctions,
	i: number,
	options: IDataObject,
): MultiValueFormat {
	const format = options.multiValueFormat;
	const field = 'options.multiValueFormat';
	return oneOf.call(this, i, field, format, MULTI_VALUE_FORMATS, 'repeat') as MultiValueFormat;
}

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
	const pageSize = positiveInteger.call(this, i, 'options.pageSize', options.pageSize, DEFAULT_PAGE_SIZE);
	const qs: IDataObject = {};
	const orderBy =
		queryText.call(this, i, 'options.orderBy', options.orderBy ?? orderFallback) || orderFallback;
	const direction = options.orderDirection;
	const orderDirection = optionalOneOf.call(this, i, 'options.orderDirection', direction, ORDER_DIRECTIONS, 'asc');
	if (orderBy) qs.orderBy = orderBy;
	if (orderBy || orderDirection) qs.orderDirection = orderDirection ?? 'asc';
	const multiValueFormat = readMultiValueFormat.call(this, i, options);
	return {
		options,
		paginate: {
			returnAll,
			limit,
			pageSize,
			qs,
			itemIndex: i,
			multiValueFormat,
			...maxRateLimitWait.call(this, i, options),
		},
	};
}
