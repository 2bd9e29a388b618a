import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { MultiValueFormat, PaginateOptions } from '../transport';
import { DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS, DEFAULT_PAGE_SIZE, inputError } from '../transport';

/** One output item per record. The router pairs them with the input item. */
export function toItems(records: IDataObject[]): INodeExecutionData[] {
	return records.map((record) => ({ json: record }));
}

/** A record answered either bare or wrapped in `{ data: {...} }`. */
export function unwrapRecord(body: unknown): IDataObject | undefined {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
	const object = body as IDataObject;
	if (
		object.id === undefined &&
		object.data &&
		typeof object.data === 'object' &&
		!Array.isArray(object.data)
	) {
		return object.data as IDataObject;
	}
	return object;
}

/** A text parameter that may also arrive as a number from an expression. */
export function textValue(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	throw inputError(
		this.getNode(),
		i,
		field,
		`expected text, got ${Array.isArray(value) ? 'a list' : typeof value}`,
	);
}

/** A required text parameter. */
export function requiredText(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
): string {
	const text = textValue.call(this, i, field, value);
	if (text === '') throw inputError(this.getNode(), i, field, 'a value is required');
	return text;
}

/** A multi-value filter: comma-separated text or a list of texts/numbers. */
export function multiValues(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
): string[] {
	if (value === undefined || value === null || value === '') return [];
	const entries = Array.isArray(value)
		? value
		: typeof value === 'string'
			? value.split(',')
			: [value];
	return entries
		.map((entry, index) => {
			if (typeof entry === 'string' || typeof entry === 'number') return String(entry).trim();
			throw inputError(
				this.getNode(),
				i,
				`${field}[${index}]`,
				`expected text, got ${typeof entry}`,
			);
		})
		.filter((entry) => entry !== '');
}

/** Checks a value against a fixed set (values from expressions are not checked by the editor). */
export function oneOf<T extends string>(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
	allowed: readonly T[],
	fallback: T,
): T {
	if (value === undefined || value === null || value === '') return fallback;
	const text = String(value).trim();
	const match = allowed.find((entry) => entry.toLowerCase() === text.toLowerCase());
	if (!match) {
		throw inputError(this.getNode(), i, field, `"${text}" is not one of ${allowed.join(', ')}`);
	}
	return match;
}

function positiveInteger(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
	fallback: number,
): number {
	if (value === undefined || value === null || value === '') return fallback;
	const number = Number(value);
	if (!Number.isFinite(number) || number < 1 || Math.floor(number) !== number) {
		throw inputError(
			this.getNode(),
			i,
			field,
			`expected a whole number of at least 1, got "${String(value)}"`,
		);
	}
	return number;
}

/** The rate-limit wait option, in seconds. */
export function maxRateLimitWait(this: IExecuteFunctions, i: number, options: IDataObject): number {
	const value = options.maxRateLimitWait;
	if (value === undefined || value === null || value === '')
		return DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS;
	const number = Number(value);
	if (!Number.isFinite(number) || number < 0) {
		throw inputError(
			this.getNode(),
			i,
			'options.maxRateLimitWait',
			`expected seconds (0 or more), got "${String(value)}"`,
		);
	}
	return number;
}

/** Query parameters from the "Additional Query Parameters" option. */
export function additionalQuery(
	this: IExecuteFunctions,
	i: number,
	options: IDataObject,
): IDataObject {
	const collection = options.additionalQuery as
		{ parameters?: Array<{ name?: unknown; value?: unknown }> } | undefined;
	const query: IDataObject = {};
	(collection?.parameters ?? []).forEach((parameter, index) => {
		const name = textValue.call(this, i, `options.additionalQuery[${index}].name`, parameter.name);
		if (name === '') {
			throw inputError(
				this.getNode(),
				i,
				`options.additionalQuery[${index}].name`,
				'a parameter name is required',
			);
		}
		if (name.toLowerCase() === 'apikey') {
			throw inputError(
				this.getNode(),
				i,
				`options.additionalQuery[${index}].name`,
				'the API key comes from the credential',
			);
		}
		const value = parameter.value;
		const text = Array.isArray(value)
			? value.map(String)
			: textValue.call(this, i, `options.additionalQuery[${index}].value`, value);
		// A name given twice becomes a multi-value parameter.
		if (query[name] !== undefined) {
			query[name] = ([] as unknown[]).concat(query[name], text) as string[];
		} else {
			query[name] = text;
		}
	});
	return query;
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
	const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
	const limit = returnAll
		? undefined
		: positiveInteger.call(this, i, 'limit', this.getNodeParameter('limit', i, 50), 50);
	const pageSize = positiveInteger.call(
		this,
		i,
		'options.pageSize',
		options.pageSize,
		DEFAULT_PAGE_SIZE,
	);
	const qs: IDataObject = {};
	const orderBy =
		textValue.call(this, i, 'options.orderBy', options.orderBy ?? orderFallback) || orderFallback;
	if (orderBy) {
		qs.orderBy = orderBy;
		qs.orderDirection = oneOf.call(
			this,
			i,
			'options.orderDirection',
			options.orderDirection,
			['asc', 'desc'] as const,
			'asc',
		);
	} else if (options.orderDirection !== undefined) {
		qs.orderDirection = oneOf.call(
			this,
			i,
			'options.orderDirection',
			options.orderDirection,
			['asc', 'desc'] as const,
			'asc',
		);
	}
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
			returnAll: Boolean(returnAll),
			limit,
			pageSize,
			qs,
			itemIndex: i,
			multiValueFormat,
			maxRateLimitWaitSeconds: maxRateLimitWait.call(this, i, options),
		},
	};
}
