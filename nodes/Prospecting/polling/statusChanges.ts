import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ProspectionStatus } from '../shared/statuses';
import { idOf, MAX_POLL_PAGES, POLL_PAGE_SIZE, readPageNewestFirst } from './listPage';

/** Static data holds at most this many ids per watched status (about 25 bytes each). */
export const MAX_TRACKED_PER_STATUS = 20_000;

/** The prospections last seen in one status: the list's total and their ids. */
export interface StatusSnapshot {
	total: number;
	ids: string[];
}

export type CheckMode = 'whenCountChanges' | 'everyPoll';

export interface StatusCheckResult {
	/** Prospections that entered the status since the last poll, oldest first. */
	entered: IDataObject[];
	/** What to keep for the next poll; the old snapshot when this poll could not read a consistent list. */
	next: StatusSnapshot | undefined;
	reads: number;
}

/**
 * Finds the prospections that entered one status since the last poll.
 *
 * The API has no updatedAt and no history, only status-filtered lists with meta.total, so the
 * node keeps the ids in each watched status and compares. The first page (one read) carries the
 * total and, when the status holds at most one page, every id: then the check is exact for one read.
 * With more, the rest of the list is read only when the total changed (mode 'whenCountChanges')
 * or on every poll ('everyPoll', exact even when one prospection leaves as another enters).
 *
 * A walk whose total moved while it ran, or that did not see as many ids as the total, is not
 * trusted: it is read once more, and if still inconsistent, the old snapshot is kept and nothing
 * is emitted for this status until a later poll reads it cleanly.
 */
export async function findStatusEntries(
	this: IPollFunctions,
	status: ProspectionStatus,
	filters: IDataObject,
	previous: StatusSnapshot | undefined,
	mode: CheckMode,
): Promise<StatusCheckResult> {
	const query = { ...filters, status };
	let reads = 0;

	for (let attempt = 1; attempt <= 2; attempt++) {
		const first = await readPageNewestFirst.call(this, '/prospections', query, 1);
		reads += 1;
		if (first.total > MAX_TRACKED_PER_STATUS) {
			throw new NodeOperationError(
				this.getNode(),
				`${first.total} prospections are ${status}: more than the ${MAX_TRACKED_PER_STATUS} this trigger can watch in one status`,
				{
					description:
						'Narrow the watched prospections with the Routine filter, or stop watching this status.',
				},
			);
		}
		const complete = first.total <= POLL_PAGE_SIZE || first.totalPages <= 1;
		if (previous && !complete && mode === 'whenCountChanges' && first.total === previous.total) {
			return { entered: [], next: previous, reads };
		}

		const records = new Map<string, IDataObject>();
		for (const record of first.records) {
			const id = idOf(record);
			if (id !== undefined) records.set(id, record);
		}
		let consistent = true;
		for (let page = 2; page <= Math.min(first.totalPages, MAX_POLL_PAGES); page++) {
			const next = await readPageNewestFirst.call(this, '/prospections', query, page);
			reads += 1;
			if (next.total !== first.total) consistent = false;
			for (const record of next.records) {
				const id = idOf(record);
				if (id !== undefined) records.set(id, record);
			}
			if (next.records.length === 0 || !consistent) break;
		}
		if (!consistent || records.size !== first.total) {
			this.logger?.debug(
				`Prospecting polling: the ${status} list changed while it was read (attempt ${attempt})`,
			);
			continue;
		}

		const snapshot: StatusSnapshot = { total: first.total, ids: [...records.keys()] };
		if (!previous) return { entered: [], next: snapshot, reads };
		const known = new Set(previous.ids);
		const entered = [...records.values()].filter((record) => !known.has(idOf(record) as string));
		return { entered: entered.reverse(), next: snapshot, reads };
	}
	return { entered: [], next: previous, reads };
}
