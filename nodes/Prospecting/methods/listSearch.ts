import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listWebhooks } from '../shared/webhooks';
import { parseListPage } from '../shared/pagination';
import { prospectingApiRequest } from '../transport/request';
import { leadLabel, prospectionLabel, routineLabel, webhookLabel } from './labels';

/** One page per keystroke or scroll: every picker reads through the same request function, inside the rate budget. */
const PAGE_SIZE = 100;

type Page = { records: IDataObject[]; page: number; more: boolean };

async function readPage(
	this: ILoadOptionsFunctions,
	path: string,
	paginationToken: unknown,
	qs: IDataObject = {},
): Promise<Page> {
	const page = Number(paginationToken) > 0 ? Number(paginationToken) : 1;
	const body = await prospectingApiRequest.call(this, 'GET', path, {
		qs: { ...qs, limit: PAGE_SIZE, page },
	});
	const listPage = parseListPage(body);
	const records = listPage?.records ?? [];
	const totalPages = Number(listPage?.meta?.totalPages);
	const more = Number.isFinite(totalPages) ? page < totalPages : records.length >= PAGE_SIZE;
	return {
		records: records.filter((record) => record && record.id !== undefined),
		page,
		more,
	};
}

function nextToken({ records, page, more }: Page): number | undefined {
	return more && records.length > 0 ? page + 1 : undefined;
}

/** Keeps the entries whose name or id contains the typed text, for lists the service cannot search. */
function matching(
	entries: Array<{ name: string; value: string }>,
	filter: string | undefined,
): Array<{ name: string; value: string }> {
	const needle = (filter ?? '').trim().toLowerCase();
	if (needle === '') return entries;
	return entries.filter(
		(entry) =>
			entry.name.toLowerCase().includes(needle) || entry.value.toLowerCase().includes(needle),
	);
}

/** Leads for the Lead picker: the typed text goes to the service's search (name, company, e-mail, phone). */
export async function searchLeads(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: unknown,
): Promise<INodeListSearchResult> {
	const search = (filter ?? '').trim();
	const page = await readPage.call(this, '/leads', paginationToken, {
		orderBy: 'createdAt',
		orderDirection: 'desc',
		...(search ? { search } : {}),
	});
	return {
		results: page.records.map((lead) => ({
			name: leadLabel(lead),
			value: String(lead.id),
		})),
		paginationToken: nextToken(page),
	};
}

/** One page of a list the service cannot search, kept to the entries that match the typed text. */
async function matchingPage(
	this: ILoadOptionsFunctions,
	path: string,
	label: (record: IDataObject) => string,
	filter: string | undefined,
	paginationToken: unknown,
	qs?: IDataObject,
): Promise<INodeListSearchResult> {
	const page = await readPage.call(this, path, paginationToken, qs);
	const entries = page.records.map((record) => ({ name: label(record), value: String(record.id) }));
	return { results: matching(entries, filter), paginationToken: nextToken(page) };
}

/** Routines for the Routine picker; the list has no search parameter, so it filters here. */
export async function searchRoutines(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: unknown,
): Promise<INodeListSearchResult> {
	return await matchingPage.call(this, '/routines', routineLabel, filter, paginationToken);
}

/** Prospections for the Prospection picker, newest first; no search parameter, so it filters here. */
export async function searchProspections(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: unknown,
): Promise<INodeListSearchResult> {
	return await matchingPage.call(this, '/prospections', prospectionLabel, filter, paginationToken, {
		orderBy: 'createdAt',
		orderDirection: 'desc',
	});
}

/** Webhooks for the Webhook picker: GET /webhooks answers every webhook at once, so it is one read. */
export async function searchWebhooks(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const webhooks = (await listWebhooks.call(this)).filter(
		(webhook) => webhook && webhook.id !== undefined,
	);
	const entries = webhooks.map((webhook) => ({
		name: webhookLabel(webhook),
		value: String(webhook.id),
	}));
	return { results: matching(entries, filter) };
}
