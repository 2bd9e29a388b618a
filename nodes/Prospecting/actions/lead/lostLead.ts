import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ProspectingRequestOptions } from '../../transport';
import { asNodeError } from '../../transport';
import { cancelSignal, pause } from '../../transport/pause';
import type { LeadContacts } from './contacts';
import { findExistingLead } from './contacts';

/** Default of "Look for a Lost Lead For": three times the default answer timeout, so a lead the service commits late shows. */
export const DEFAULT_LOST_LEAD_SEARCH_SECONDS = 180;

/** Time given to the service to finish a write whose answer was lost before the first search. */
const SETTLE_MS = 300;

/**
 * When the searches run, as parts of the search window after the answer was lost: close together first (most
 * lost answers are a dropped connection after the commit), then further apart, the last at the window's end.
 * Proportional to the window, so a short window in a test keeps the shape of the default one.
 */
const SEARCH_POINTS = [1 / 32, 1 / 16, 1 / 8, 1 / 4, 1 / 2, 1];

/** The times (ms after the answer was lost) of the searches for a window of `windowMs`. */
export function searchSchedule(windowMs: number): number[] {
	const first = Math.min(SETTLE_MS, windowMs);
	const later = SEARCH_POINTS.map((part) => Math.round(part * windowMs)).filter((at) => at > first);
	return [first, ...new Set(later)];
}

export interface LostLeadSearch {
	/** The lead found, when one was. */
	lead?: IDataObject;
	/** How many searches ran (failed ones included). */
	searches: number;
	/** Seconds from the start of the first search to the start of the last. */
	spanSeconds: number;
	/** The last search's failure, when the last search failed. */
	lastFailure?: string;
}

function isCancellation(error: unknown): boolean {
	const name = (error as { name?: unknown; constructor?: { name?: unknown } } | undefined)?.name;
	return /Cancel+edError$/.test(String(name ?? ''));
}

/**
 * Looks for a lead whose create answer was lost, several times over `windowMs`: a slow service may commit it
 * well after the node gave up on the answer. Stops at the first search that finds it. A failed search does not
 * end the look; whether the last one failed is reported.
 */
export async function lookForLostLead(
	this: IExecuteFunctions,
	contacts: LeadContacts,
	name: string,
	settings: ProspectingRequestOptions,
	windowMs: number,
): Promise<LostLeadSearch> {
	const lostAt = Date.now();
	const signal = cancelSignal(this);
	let searches = 0;
	let firstAt: number | undefined;
	let lastAt = lostAt;
	let lastFailure: string | undefined;
	for (const at of searchSchedule(windowMs)) {
		const wait = lostAt + at - Date.now();
		if (wait > 0) await pause(wait, signal);
		lastAt = Date.now();
		firstAt ??= lastAt;
		searches += 1;
		try {
			const lead = await findExistingLead.call(this, contacts, name, settings);
			lastFailure = undefined;
			if (lead) return { lead, searches, spanSeconds: (lastAt - firstAt) / 1000 };
		} catch (error) {
			// A cancelled execution reaches n8n as it is, so the run is marked cancelled.
			if (isCancellation(error)) {
				const cancellation = error as Error;
				throw cancellation;
			}
			lastFailure = asNodeError(this.getNode(), error).message;
		}
	}
	return { searches, spanSeconds: (lastAt - (firstAt ?? lostAt)) / 1000, lastFailure };
}
