import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { parseListPage, prospectingApiRequest } from '../transport';

const PAGE_SIZE = 100;

function routineName(routine: IDataObject): string {
	for (const key of ['name', 'title', 'label']) {
		const value = routine[key];
		if (typeof value === 'string' && value.trim() !== '') return value;
	}
	return String(routine.id);
}

/** Routines for the Routine picker, one page per scroll; the list has no search parameter, so it filters here. */
export async function searchRoutines(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: unknown,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken) > 0 ? Number(paginationToken) : 1;
	const body = await prospectingApiRequest.call(this, 'GET', '/routines', {
		qs: { limit: PAGE_SIZE, page },
	});
	const listPage = parseListPage(body);
	const routines = listPage?.records ?? [];
	const needle = (filter ?? '').trim().toLowerCase();
	const results = routines
		.filter((routine) => routine && routine.id !== undefined)
		.map((routine) => ({ name: routineName(routine), value: String(routine.id) }))
		.filter(
			(entry) =>
				needle === '' ||
				entry.name.toLowerCase().includes(needle) ||
				entry.value.toLowerCase().includes(needle),
		);
	const totalPages = Number(listPage?.meta?.totalPages);
	const more = Number.isFinite(totalPages) ? page < totalPages : routines.length >= PAGE_SIZE;
	return { results, paginationToken: more && routines.length > 0 ? page + 1 : undefined };
}
