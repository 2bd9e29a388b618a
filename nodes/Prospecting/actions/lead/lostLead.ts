import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../../helpers/errors';
import { cancelSignal, leaveIfCancelled, pause } from '../../transport/pause';

/**
 * Default of "Look for a Lost Lead For": three times the default answer timeout, so a lead the service commits late
 * shows. Every create whose outcome is unknown (a lost answer, any 5xx, a 2xx without the lead) holds its item
 * this long at most.
 */
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
	/** Why each failed search failed: any one means a search may have missed the lead. */
	failures: string[];
}

export interface LostLeadLook {
	/** The contact messages name. */
	contact: string;
	/** One search: the lead the create sent, when the service has it. */
	find: () => Promise<IDataObject | undefined>;
	/** How long to keep looking, from `from`. */
	windowMs: number;
	/** When the window started (the answer was lost); now unless given. At least one search runs even when it is over. */
	from?: number;
	/** A tool call's deadline: no search starts after it (the item then ends "may exist"). */
	deadlineAt?: number;
}

/**
 * Looks for a lead whose create answer was lost, several times over the window: a slow service may commit it
 * well after the node gave up on the answer. Stops at the first search that finds it; a failed search does not end
 * the look, and every failure is reported.
 */
export async function lookForLostLead(this: IExecuteFunctions, look: LostLeadLook): Promise<LostLeadSearch> {
	const lostAt = look.from ?? Date.now();
	const signal = cancelSignal(this);
	const failures: string[] = [];
	let searches = 0;
	let firstAt: number | undefined;
	let lastAt = lostAt;
	const schedule = searchSchedule(look.windowMs);
	const due = schedule.filter((at) => lostAt + at >= Date.now() && lostAt + at <= (look.deadlineAt ?? Infinity));
	let lead: IDataObject | undefined;
	try {
		// When no point is due (the window or the deadline is over), one search now.
		for (const at of due.length > 0 ? due : [0]) {
			// A point already past waits no time.
			await pause(lostAt + at - Date.now(), signal);
			lastAt = Date.now();
			firstAt ??= lastAt;
			searches += 1;
			try {
				lead = await look.find();
				if (lead) break;
			} catch (error) {
				// A Stop (the execution's cancel signal) reaches n8n as it is, so the run is marked cancelled; a search cut
				// off by it failed because of the Stop, not because the service did.
				await leaveIfCancelled(signal);
				failures.push(asNodeError(this.getNode(), error).message);
			}
		}
		// A Stop during the last search ends the look as a Stop, not as a search that found nothing.
		await leaveIfCancelled(signal);
	} catch (error) {
		// Only a Stop ends the look early (a failed search is counted above). n8n may not show an error raised after its
		// Stop: the log keeps the contact whose lead is in doubt.
		this.logger.warn(
			`Prospecting: the lead for ${look.contact} may exist: its create's answer was lost and the execution was stopped while looking for it (${searches} searches). Check for it before sending it again.`,
		);
		const stopped = error as Error;
		throw stopped;
	}
	return { lead, searches, spanSeconds: (lastAt - (firstAt ?? lostAt)) / 1000, failures };
}
