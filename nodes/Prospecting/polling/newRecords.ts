import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { compareTimestamps, idOf, MAX_POLL_PAGES, readPageNewestFirst } from './listPage';

/**
 * Where the last poll stopped: the newest createdAt seen and the ids of every record seen with
 * exactly that createdAt, so records sharing it are neither emitted twice nor skipped.
 * createdAt '' means "the list was empty": every record seen later is new.
 */
export interface Watermark {
	createdAt: string;
	ids: string[];
}

export interface NewRecordsResult {
	/** New records, oldest first. */
	records: IDataObject[];
	next: Watermark;
	reads: number;
}

function createdAtOf(record: IDataObject): string | undefined {
	const value = record?.createdAt;
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Walks the list newest first from page 1 until it passes the watermark. The service has no
 * "since" filter, so this is the fewest reads that find every new record: one read while fewer
 * than a page of records arrived since the last poll.
 *
 * A record created during the walk lands on page 1 and pushes the others down, so a later page
 * may repeat a record already seen (dropped by id) but never skips one. If the walk does not see
 * the newcomer, its createdAt is still newer than the watermark kept, so the next poll finds it.
 *
 * Without a watermark (first poll after activation), nothing is returned: the newest records set
 * the starting point.
 */
export async function findNewRecords(
	this: IPollFunctions,
	endpoint: string,
	filters: IDataObject,
	watermark: Watermark | undefined,
): Promise<NewRecordsResult> {
	const seen = new Set<string>();
	const fresh: IDataObject[] = [];
	let top: string | undefined;
	const topIds = new Set<string>();
	let reads = 0;

	const isNew = (createdAt: string, id: string): boolean => {
		if (!watermark) return false;
		if (watermark.createdAt === '') return true;
		const order = compareTimestamps(createdAt, watermark.createdAt);
		return order > 0 || (order === 0 && !watermark.ids.includes(id));
	};
	// Past the watermark (or, on the first poll, past the newest timestamp) the walk can stop.
	const isPast = (createdAt: string): boolean => {
		const limit = watermark ? watermark.createdAt : top;
		if (limit === undefined || limit === '') return false;
		return compareTimestamps(createdAt, limit) < 0;
	};

	walk: for (let page = 1; page <= MAX_POLL_PAGES; page++) {
		const { records, totalPages } = await readPageNewestFirst.call(this, endpoint, filters, page);
		reads += 1;
		for (const record of records) {
			const id = idOf(record);
			const createdAt = createdAtOf(record);
			if (id === undefined || createdAt === undefined) continue;
			if (isPast(createdAt)) break walk;
			if (seen.has(id)) continue;
			seen.add(id);
			if (top === undefined || compareTimestamps(createdAt, top) > 0) {
				top = createdAt;
				topIds.clear();
			}
			if (compareTimestamps(createdAt, top) === 0) topIds.add(id);
			if (isNew(createdAt, id)) fresh.push(record);
		}
		if (records.length === 0 || page >= totalPages) break;
	}

	let next: Watermark;
	if (top === undefined) {
		next = watermark ?? { createdAt: '', ids: [] };
	} else if (watermark && watermark.createdAt !== '' && compareTimestamps(top, watermark.createdAt) === 0) {
		next = { createdAt: watermark.createdAt, ids: [...new Set([...watermark.ids, ...topIds])] };
	} else if (watermark && watermark.createdAt !== '' && compareTimestamps(top, watermark.createdAt) < 0) {
		next = watermark;
	} else {
		next = { createdAt: top, ids: [...topIds] };
	}
	return { records: fresh.reverse(), next, reads };
}
