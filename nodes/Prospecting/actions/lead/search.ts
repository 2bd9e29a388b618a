import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../../helpers/errors';
import { prospectingApiPaginate } from '../../shared/pagination';
import { cancelSignal, leaveIfCancelled, pause } from '../../transport/pause';
import type { ProspectingRequestOptions } from '../../transport/request';
import { earliestCreatedAt } from '../../transport/serviceClock';
import { checkBeforeSending } from '../helpers/checkBeforeSending';
import { hasContactOf } from './contacts';
import { isTheLeadSent, matchesEverythingSent, type LeadToCreate, type SentLead } from './sentLead';

/** The searches of Lead Create (GET /leads?search=): for a lead before sending, and for the lead a lost create sent. */

/**
 * Default of "Look for a Lost Lead For": three times the default answer timeout, so a lead the service commits late
 * shows. Every create whose outcome is unknown holds its item this long at most.
 */
export const DEFAULT_LOST_LEAD_SEARCH_SECONDS = 180;
/** Time given to the service to finish a write whose answer was lost before the first search. */
const SETTLE_MS = 300;
/**
 * When the searches run, as parts of the window: close together first (most lost answers are a dropped connection
 * after the commit), then further apart, the last at the window's end. Proportional, so a short window keeps the shape.
 */
const SEARCH_POINTS = [1 / 32, 1 / 16, 1 / 8, 1 / 4, 1 / 2, 1];

/** The times (ms after the answer was lost) of the searches for a window of `windowMs`. */
export function searchSchedule(windowMs: number): number[] {
	const first = Math.min(SETTLE_MS, windowMs);
	return [first, ...new Set(SEARCH_POINTS.map((part) => Math.round(part * windowMs)).filter((at) => at > first))];
}

/** Every lead the service's search returns for one contact, oldest first. */
async function searchFor(this: IExecuteFunctions, contact: string, settings: ProspectingRequestOptions): Promise<IDataObject[]> {
	return await prospectingApiPaginate.call(this, '/leads', { ...settings, returnAll: true, qs: { search: contact, orderBy: 'createdAt', orderDirection: 'asc' } });
}

/**
 * Before sending: the leads the service holds for any contact sent (one search each, as the service advises before
 * repeating a creation), and the oldest that Skip If Exists takes (a contact, and the name when given) or, in a retried
 * execution, the newest that matches every field sent. A failed search sends nothing (a refused search is not a refused lead).
 */
export async function searchBeforeSending(
	this: IExecuteFunctions,
	lead: LeadToCreate,
	check: { skipIfExists: boolean; why: string },
	settings: ProspectingRequestOptions,
): Promise<{ existing?: IDataObject; listed: string[] }> {
	const contacts = check.skipIfExists ? [...lead.sent.emails, ...lead.sent.phones, ...lead.sent.mobiles].map((item) => item.value) : [lead.contact];
	const listed = await checkBeforeSending(this.getNode(), { record: 'lead', why: check.why }, async () => {
		const byId = new Map<string, IDataObject>();
		for (const contact of contacts) for (const record of await searchFor.call(this, contact, settings)) byId.set(String(record.id), record);
		return [...byId.values()].sort((a, b) => Date.parse(String(a.createdAt)) - Date.parse(String(b.createdAt)));
	});
	const existing = check.skipIfExists
		? listed.find((record) => hasContactOf(record, lead.keys, lead.sent.name))
		: [...listed].reverse().find((record) => matchesEverythingSent(record, lead.sent));
	return { existing, listed: listed.map((record) => String(record.id)) };
}

export interface LostLeadSearch {
	lead?: IDataObject;
	/** How many searches ran (failed ones included), over how many seconds from the first to the last. */
	searches: number;
	spanSeconds: number;
	/** Why each failed search failed: any one means a search may have missed the lead. */
	failures: string[];
	/** Whether the service's clock was known (a Date header), without which a late-stamped lead may be missed. */
	measured: boolean;
}

export interface LostLeadLook {
	account: string;
	contact: string;
	sent: SentLead;
	sentAt: number;
	/** Leads that existed before the send: never the one sent. */
	known: string[];
	windowMs: number;
	/** When the window started; now unless given. At least one search runs even when it is over. */
	from?: number;
	/** A tool call's deadline: no search starts after it. */
	deadlineAt?: number;
	settings: ProspectingRequestOptions;
}

/**
 * Looks for the lead a create sent whose outcome is unknown, several times over the window (a slow service may commit
 * it well after its answer was lost): created since the send on the service's clock and matching every field sent.
 * Stops at the first search that finds it; a failed search does not end the look, and every failure is reported.
 */
export async function lookForLostLead(this: IExecuteFunctions, look: LostLeadLook): Promise<LostLeadSearch> {
	const lostAt = look.from ?? Date.now();
	const signal = cancelSignal(this);
	const result: LostLeadSearch = { searches: 0, spanSeconds: 0, failures: [], measured: false };
	const due = searchSchedule(look.windowMs).filter((at) => lostAt + at >= Date.now() && lostAt + at <= (look.deadlineAt ?? Infinity));
	let firstAt: number | undefined;
	try {
		for (const at of due.length > 0 ? due : [0]) {
			await pause(lostAt + at - Date.now(), signal);
			firstAt ??= Date.now();
			result.spanSeconds = (Date.now() - firstAt) / 1000;
			result.searches += 1;
			try {
				const found = await searchFor.call(this, look.contact, look.settings);
				const earliest = earliestCreatedAt(look.account, look.sentAt);
				result.measured = earliest.measured;
				result.lead = found.find((record) => !look.known.includes(String(record.id)) && isTheLeadSent(record, look.sent, earliest.at));
			} catch (error) {
				// A search cut off by a Stop failed because of it: the Stop reaches n8n as it is.
				await leaveIfCancelled(signal);
				result.failures.push(asNodeError(this.getNode(), error).message);
			}
			if (result.lead) break;
		}
		await leaveIfCancelled(signal);
	} catch (error) {
		// Only a Stop ends the look early. n8n may not show an error raised after it: the log names the contact in doubt.
		this.logger.warn(
			`Prospecting: the lead for ${look.contact} may exist: its create's answer was lost and the execution was stopped while looking for it (${result.searches} searches). Check for it before sending it again.`,
		);
		const stopped = error as Error;
		throw stopped;
	}
	return result;
}
