import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseListPage } from '../shared/pagination';
import { prospectingApiRequest } from '../transport/request';

/** Records per read: the most the service is known to accept, so a poll costs as few reads as it can. */
export const POLL_PAGE_SIZE = 100;
/** No walk of one poll goes past this many pages, whatever meta says. */
export const MAX_POLL_PAGES = 1000;

export interface ListPage {
	records: IDataObject[];
	total: number;
	totalPages: number;
}

function toCount(value: unknown, fallback: number): number {
	const number = typeof value === 'string' ? Number(value) : value;
	return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? number : fallback;
}

/** One page of a list, newest first. One read. */
export async function readPageNewestFirst(
	this: IPollFunctions,
	endpoint: string,
	filters: IDataObject,
	page: number,
	pageSize = POLL_PAGE_SIZE,
): Promise<ListPage> {
	const body = await prospectingApiRequest.call(this, 'GET', endpoint, {
		qs: { ...filters, orderBy: 'createdAt', orderDirection: 'desc', limit: pageSize, page },
	});
	const listPage = parseListPage(body);
	if (!listPage) {
		throw new NodeOperationError(
			this.getNode(),
			`The service answered GET ${endpoint} without a list of records`,
			{ description: 'Nothing was emitted; the next poll tries again.' },
		);
	}
	const { records } = listPage;
	const meta = listPage.meta ?? {};
	const total = toCount(meta.total, records.length);
	const totalPages = toCount(meta.totalPages, Math.max(1, Math.ceil(total / pageSize)));
	return { records, total, totalPages };
}

export function idOf(record: IDataObject): string | undefined {
	const id = record?.id;
	return id === undefined || id === null || id === '' ? undefined : String(id);
}

/** Orders ISO 8601 timestamps by instant; falls back to text order for values that do not parse. */
export function compareTimestamps(a: string, b: string): number {
	const left = Date.parse(a);
	const right = Date.parse(b);
	if (Number.isFinite(left) && Number.isFinite(right) && left !== right) return left < right ? -1 : 1;
	if (Number.isFinite(left) && Number.isFinite(right)) return 0;
	return a < b ? -1 : a > b ? 1 : 0;
}
