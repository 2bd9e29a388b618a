import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { locatorValue } from '../shared/recordLocator';
import type { ProspectionStatus } from '../shared/statuses';
import { PROSPECTION_STATUSES } from '../shared/statuses';
import { compareTimestamps, readPageNewestFirst } from './listPage';
import type { Watermark } from './newRecords';
import { findNewRecords } from './newRecords';
import type { CheckMode, StatusSnapshot } from './statusChanges';
import { findStatusEntries } from './statusChanges';

export type PollEvent = 'newLead' | 'newProspection' | 'prospectionStatusChanged';

/** What the node keeps in the workflow's static data between polls (and across n8n restarts). */
interface PollState {
	/** The event and filters the state belongs to: a change starts afresh. */
	scope?: string;
	watermark?: Watermark;
	statuses?: Partial<Record<ProspectionStatus, StatusSnapshot>>;
}

function listOf(value: unknown): string[] {
	if (value === undefined || value === null || value === '') return [];
	const entries = Array.isArray(value) ? value : String(value).split(',');
	return entries.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
}

function text(value: unknown): string | undefined {
	const result = typeof value === 'string' ? value.trim() : value === undefined ? '' : String(value);
	return result === '' ? undefined : result;
}

/** The list query of the chosen filters. */
function filtersQuery(event: PollEvent, filters: IDataObject): IDataObject {
	if (event === 'newLead') {
		return {
			status: text(filters.leadStatus),
			routineIds: listOf(filters.routineIds),
			sourceIds: listOf(filters.sourceIds),
			createdByIds: listOf(filters.createdByIds),
		};
	}
	const query: IDataObject = {
		routineIds: listOf(filters.routineIds),
		leadId: text(locatorValue(filters.leadId)),
	};
	if (event === 'newProspection') query.status = listOf(filters.status);
	return query;
}

function watchedStatuses(this: IPollFunctions): ProspectionStatus[] {
	const chosen = listOf(this.getNodeParameter('statuses', []));
	const statuses = PROSPECTION_STATUSES.filter((status) => chosen.includes(status));
	if (statuses.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Choose at least one status to watch', {
			description: 'Set "Statuses" to one or more of In Progress, Frozen, Won and Lost.',
		});
	}
	return statuses;
}

/** "Fetch Test Event": the most recent matching record, without touching the poll state. */
async function mostRecent(
	this: IPollFunctions,
	event: PollEvent,
	query: IDataObject,
): Promise<IDataObject | undefined> {
	if (event !== 'prospectionStatusChanged') {
		const endpoint = event === 'newLead' ? '/leads' : '/prospections';
		const { records } = await readPageNewestFirst.call(this, endpoint, query, 1, 1);
		return records[0];
	}
	let newest: IDataObject | undefined;
	for (const status of watchedStatuses.call(this)) {
		const { records } = await readPageNewestFirst.call(
			this,
			'/prospections',
			{ ...query, status },
			1,
			1,
		);
		const record = records[0];
		if (
			record &&
			(!newest || compareTimestamps(String(record.createdAt), String(newest.createdAt)) > 0)
		) {
			newest = record;
		}
	}
	return newest;
}

/**
 * One poll. Every read happens before the static data changes: a poll that fails (a rate limit
 * longer than it may wait, the service down) emits nothing, keeps the last state and the next
 * poll starts from where the last good one stopped.
 */
export async function pollProspecting(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const event = this.getNodeParameter('event') as PollEvent;
	const filters = (this.getNodeParameter('filters', {}) ?? {}) as IDataObject;
	const query = filtersQuery(event, filters);

	if (this.getMode() === 'manual') {
		const record = await mostRecent.call(this, event, query);
		if (!record) return null;
		return [this.helpers.returnJsonArray([record])];
	}

	const staticData = this.getWorkflowStaticData('node') as PollState;
	const scope = JSON.stringify({ event, query });
	const sameScope = staticData.scope === scope;
	let emitted: IDataObject[];
	let nextState: PollState;

	if (event === 'prospectionStatusChanged') {
		const mode = this.getNodeParameter('checkMode', 'whenCountChanges') as CheckMode;
		const previous = sameScope ? (staticData.statuses ?? {}) : {};
		const statuses: Partial<Record<ProspectionStatus, StatusSnapshot>> = {};
		emitted = [];
		for (const status of watchedStatuses.call(this)) {
			const result = await findStatusEntries.call(this, status, query, previous[status], mode);
			if (result.next) statuses[status] = result.next;
			emitted.push(...result.entered);
		}
		nextState = { scope, statuses };
	} else {
		const endpoint = event === 'newLead' ? '/leads' : '/prospections';
		const watermark = sameScope ? staticData.watermark : undefined;
		const result = await findNewRecords.call(this, endpoint, query, watermark);
		emitted = result.records;
		nextState = { scope, watermark: result.next };
	}

	for (const key of Object.keys(staticData)) delete (staticData as IDataObject)[key];
	Object.assign(staticData, nextState);
	if (emitted.length === 0) return null;
	return [this.helpers.returnJsonArray(emitted)];
}
