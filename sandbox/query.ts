/** Query-string reading: multi-value filters and the list conventions (limit, page, orderBy, orderDirection). */
import { validationError, type FieldError } from './errors';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** Query values by normalised key: `a[]` and `a[0]` are read as `a`; each key keeps every value in order. */
export type Query = Map<string, string[]>;

export function parseQuery(search: string): Query {
	const query: Query = new Map();
	if (!search) return query;
	for (const [rawKey, value] of new URLSearchParams(search)) {
		const bracket = rawKey.indexOf('[');
		const key = bracket > 0 && rawKey.endsWith(']') ? rawKey.slice(0, bracket) : rawKey;
		const list = query.get(key);
		if (list) list.push(value);
		else query.set(key, [value]);
	}
	return query;
}

/** Every value of a multi-value filter: repeated keys, bracketed keys and comma-separated values alike. */
export function multiValue(query: Query, key: string): string[] | undefined {
	const raw = query.get(key);
	if (!raw) return undefined;
	const values: string[] = [];
	for (const item of raw) {
		for (const part of item.split(',')) {
			const trimmed = part.trim();
			if (trimmed) values.push(trimmed);
		}
	}
	return values.length ? values : undefined;
}

export function singleValue(query: Query, key: string): string | undefined {
	const raw = query.get(key);
	return raw && raw.length ? raw[0] : undefined;
}

export interface ListParams {
	limit: number;
	page: number;
	orderBy: string;
	descending: boolean;
}

function positiveInteger(raw: string | undefined): number | undefined | null {
	if (raw === undefined || raw === '') return undefined;
	if (!/^\d+$/.test(raw.trim())) return null;
	const n = Number(raw);
	return Number.isSafeInteger(n) && n >= 1 ? n : null;
}

/** Reads the list conventions; invalid values are a 400 naming the parameter. */
export function listParams(query: Query, orderFields: readonly string[], extraErrors: FieldError[] = []): ListParams {
	const errors: FieldError[] = [...extraErrors];
	const limit = positiveInteger(singleValue(query, 'limit'));
	if (limit === null || (limit !== undefined && limit > MAX_LIMIT))
		errors.push({ field: 'limit', message: `Deve ser um número inteiro entre 1 e ${MAX_LIMIT}.` });
	const page = positiveInteger(singleValue(query, 'page'));
	if (page === null) errors.push({ field: 'page', message: 'Deve ser um número inteiro maior ou igual a 1.' });
	const orderBy = singleValue(query, 'orderBy') || 'createdAt';
	if (!orderFields.includes(orderBy))
		errors.push({ field: 'orderBy', message: `Campo de ordenação inválido. Use: ${orderFields.join(', ')}.` });
	const direction = (singleValue(query, 'orderDirection') || 'asc').toLowerCase();
	if (direction !== 'asc' && direction !== 'desc')
		errors.push({ field: 'orderDirection', message: 'Use asc ou desc.' });
	if (errors.length) throw validationError(errors);
	return {
		limit: limit ?? DEFAULT_LIMIT,
		page: page ?? 1,
		orderBy,
		descending: direction === 'desc',
	};
}

/** Checks every value of an enum filter; unknown values are a 400 naming the parameter. */
export function enumFilter(
	query: Query,
	key: string,
	allowed: readonly string[],
	errors: FieldError[],
): Set<string> | undefined {
	const values = multiValue(query, key);
	if (!values) return undefined;
	const set = new Set<string>();
	for (const value of values) {
		const upper = value.toUpperCase();
		if (!allowed.includes(upper)) {
			errors.push({ field: key, message: `Valor inválido: ${value}. Use: ${allowed.join(', ')}.` });
		} else set.add(upper);
	}
	return set;
}
