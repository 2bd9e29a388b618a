import type { IDataObject } from 'n8n-workflow';

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
