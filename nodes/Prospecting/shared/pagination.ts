import type { IDataObject } from 'n8n-workflow';

import { buildApiError } from '../helpers/nodeError';
import type { ProspectingContext } from '../helpers/account';
import type { ProspectingRequestOptions } from '../transport/request';
import { prospectingApiRequest } from '../transport/request';

/** One page of a list as the service answers it: `{ data: [...], meta: {...} }`. */
export interface ListPageBody {
	records: IDataObject[];
	/** Absent when the answer carries no meta object. */
	meta: IDataObject | undefined;
}

/** Reads a list answer; undefined when it has no data list (a wrong base URL, a changed API). */
export function parseListPage(body: unknown): ListPageBody | undefined {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
	const { data, meta } = body as IDataObject;
	if (!Array.isArray(data)) return undefined;
	return {
		records: data as IDataObject[],
		meta: meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as IDataObject) : undefined,
	};
}

export const DEFAULT_PAGE_SIZE = 100;
/** No walk goes past this many pages, whatever meta says. */
export const MAX_PAGES = 10_000;

export interface PaginateOptions extends ProspectingRequestOptions {
	/** Walk every page; otherwise stop once `limit` records are collected. */
	returnAll: boolean;
	limit?: number;
	/** Records per page asked of the service. */
	pageSize?: number;
}

function positiveNumber(value: unknown): number | undefined {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof number === 'number' && Number.isFinite(number) && number > 0 ? number : undefined;
}

function recordId(record: unknown): string | undefined {
	if (record && typeof record === 'object' && 'id' in record) {
		const id = (record as { id?: unknown }).id;
		if (id !== undefined && id !== null && id !== '') return String(id);
	}
	return undefined;
}

/**
 * Walks a paginated list (`{ data, meta }`) page by page, in sequence, with the same query
 * (and so the same order) on every page.
 *
 * Stops at the first of: enough records for `limit`; an empty page; a page shorter than the
 * page size; the last page announced by meta (totalPages, or total / page size, re-read on
 * every page so records added during the walk are still reached); MAX_PAGES. A record whose
 * id was already returned in this walk is not returned twice. An answer without a data list,
 * or the same page twice in a row, ends the walk with an error instead of looping.
 */
export async function prospectingApiPaginate(
	this: ProspectingContext,
	endpoint: string,
	options: PaginateOptions,
): Promise<IDataObject[]> {
	const node = this.getNode();
	const requestedPageSize = Math.floor(positiveNumber(options.pageSize) ?? DEFAULT_PAGE_SIZE);
	const limit = options.returnAll ? Infinity : Math.floor(positiveNumber(options.limit) ?? 50);
	const pageSize = Math.max(1, Math.min(requestedPageSize, limit));
	const requestOptions: ProspectingRequestOptions = {
		itemIndex: options.itemIndex,
		maxRateLimitWaitSeconds: options.maxRateLimitWaitSeconds,
		deadlineAt: options.deadlineAt,
		recordLabel: options.recordLabel,
		multiValueFormat: options.multiValueFormat,
		timeoutMs: options.timeoutMs,
	};

	// Every error names the item and the call, as the request's own errors do.
	const where = `(item ${options.itemIndex ?? 0}, GET ${endpoint})`;
	const records: IDataObject[] = [];
	const seen = new Set<string>();
	let previousPageIds: string | undefined;

	for (let page = 1; ; page++) {
		if (page > MAX_PAGES) {
			throw buildApiError(node, {
				message: `Stopped after ${MAX_PAGES} pages of ${endpoint}: the service kept announcing more pages`,
				description: `The walk returned ${records.length} records. Use a filter or Limit to fetch fewer. ${where}`,
				itemIndex: options.itemIndex,
			});
		}
		const body = await prospectingApiRequest.call(this, 'GET', endpoint, {
			...requestOptions,
			qs: { ...(options.qs ?? {}), limit: pageSize, page },
		});
		const listPage = parseListPage(body);
		if (!listPage) {
			throw buildApiError(node, {
				message: `The answer for page ${page} of ${endpoint} has no data list`,
				description: `Expected an object with a "data" array. Check the base URL in the credential. ${where}`,
				itemIndex: options.itemIndex,
			});
		}
		const { records: data, meta } = listPage;

		// A service that ignores `page` would otherwise return page 1 forever.
		const pageIds = JSON.stringify(data.map((record) => recordId(record) ?? null));
		if (
			page > 1 &&
			data.some((record) => recordId(record) !== undefined) &&
			pageIds === previousPageIds
		) {
			throw buildApiError(node, {
				message: `The service returned the same records for page ${page} as for page ${page - 1} of ${endpoint}`,
				description: `It may not support the page parameter. ${records.length} records were read before stopping. ${where}`,
				itemIndex: options.itemIndex,
			});
		}
		previousPageIds = pageIds;

		for (const record of data) {
			const id = recordId(record);
			if (id !== undefined) {
				if (seen.has(id)) continue;
				seen.add(id);
			}
			records.push(record);
			if (records.length >= limit) return records;
		}

		if (data.length === 0) break;
		// The service may serve fewer per page than asked; its meta.limit then is the page size.
		const effectivePageSize = positiveNumber(meta?.limit) ?? pageSize;
		if (data.length < effectivePageSize) break;
		if (meta) {
			const totalPages = positiveNumber(meta.totalPages);
			const total = positiveNumber(meta.total);
			const candidates = [
				totalPages,
				total !== undefined ? Math.ceil(total / effectivePageSize) : undefined,
			].filter((value): value is number => value !== undefined);
			if (meta.total === 0 || meta.totalPages === 0) break;
			if (candidates.length > 0 && page >= Math.min(...candidates)) break;
		}
	}
	return records;
}
