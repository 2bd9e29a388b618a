import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../helpers/nodeError';
import { withOutcome } from '../../helpers/outcome';
import { prospectingApiPaginate } from '../../shared/pagination';
import { cancelSignal, leaveIfCancelled, pause } from '../../transport/pause';
import type { ProspectingRequestOptions } from '../../transport/request';
import { earliestCreatedAt } from '../../transport/serviceClock';
import { checkBeforeSending } from '../checkBeforeSending';
import type { Doubt } from '../writeMemory';
import { hasContactOf, isTheLeadSent, matchesEverythingSent, type LeadToCreate, type SentLead } from './sentLead';

/** Lead Create's searches (GET /leads?search=): for a lead before sending, and for a lost lead after. */

/** Default of "Look for a Lost Lead For": three times the default answer timeout, so a lead committed late shows. */
export const DEFAULT_LOST_LEAD_SEARCH_SECONDS = 180;
/** Time given to the service to finish a write whose answer was lost, before the first search. */
const SETTLE_MS = 300;
/** When the searches run, as parts of the window: close together first (most lost answers are a dropped connection after the commit), the last at its end. */
const SEARCH_POINTS = [1 / 32, 1 / 16, 1 / 8, 1 / 4, 1 / 2, 1];

const searchFor = async (context: IExecuteFunctions, contact: string, settings: ProspectingRequestOptions): Promise<IDataObject[]> =>
	await prospectingApiPaginate.call(context, '/leads', { ...settings, returnAll: true, qs: { search: contact, orderBy: 'createdAt', orderDirection: 'asc' } });

/**
 * Before sending, as the service advises before repeating a creation: the leads it holds for any contact sent (one
 * search each) and the oldest Skip If Exists takes (a contact, and the name when given), or in a retried execution the
 * newest matching every field sent. A failed search sends nothing (a refused search is not a refused lead).
 */
export async function searchBeforeSending(this: IExecuteFunctions, lead: LeadToCreate, skipIfExists: boolean, settings: ProspectingRequestOptions) {
	const why = skipIfExists
		? `Skip If a Lead With This Contact Exists could not search for ${lead.contact} (GET /leads)`
		: `this execution retries a failed one, which may have created it, and the search for ${lead.contact} (GET /leads) failed`;
	const listed = await checkBeforeSending(this.getNode(), { record: 'lead', why }, async () => {
		const byId = new Map<string, IDataObject>();
		for (const contact of skipIfExists ? [...lead.sent.emails, ...lead.sent.phones, ...lead.sent.mobiles].map((item) => item.value) : [lead.contact]) {
			for (const record of await searchFor(this, contact, settings)) byId.set(String(record.id), record);
		}
		return [...byId.values()].sort((a, b) => Date.parse(String(a.createdAt)) - Date.parse(String(b.createdAt)));
	});
	const existing = skipIfExists ? listed.find((record) => hasContactOf(record, lead.keys, lead.sent.name)) : [...listed].reverse().find((record) => matchesEverythingSent(record, lead.sent));
	return { existing, listed: listed.map((record) => String(record.id)) };
}

/** A create whose lead may be lost: what it sent and when, the leads listed before it, and how long to look for it. */
export type SentCreate = Doubt & { sent: SentLead; known: string[] };

/**
 * Looks for the lead a create sent with its outcome unknown, from `from` over the window (a slow service may commit it
 * well after its answer was lost; at least one search runs), no search starting past the deadline. Stops at the first
 * search that finds it. Tells how many searches ran over how many seconds, why each failed one failed (it may have
 * missed the lead), and whether the service's clock was `measured` (a Date header; else a late-stamped lead may be missed).
 */
export async function lookForLostLead(this: IExecuteFunctions, look: SentCreate & { contact: string; account: string; from: number; settings: ProspectingRequestOptions }) {
	const signal = cancelSignal(this);
	const result = { lead: undefined as IDataObject | undefined, searches: 0, spanSeconds: 0, failures: [] as string[], measured: false };
	const first = Math.min(SETTLE_MS, look.windowMs);
	const schedule = [first, ...new Set(SEARCH_POINTS.map((part) => Math.round(part * look.windowMs)).filter((at) => at > first))];
	const due = schedule.filter((at) => look.from + at >= Date.now() && look.from + at <= (look.settings.deadlineAt ?? Infinity));
	let firstAt: number | undefined;
	try {
		for (const at of due.length > 0 ? due : [0]) {
			await pause(look.from + at - Date.now(), signal);
			firstAt ??= Date.now();
			result.spanSeconds = (Date.now() - firstAt) / 1000;
			result.searches += 1;
			try {
				const found = await searchFor(this, look.contact, look.settings);
				const clock = earliestCreatedAt(look.account, look.sentAt);
				[result.lead, result.measured] = [found.find((record) => isTheLeadSent(record, look, clock.at)), clock.measured];
				if (result.lead) break;
			} catch (error) {
				// A search cut off by a Stop failed because of it: the Stop reaches n8n as it is.
				await leaveIfCancelled(signal);
				result.failures.push(asNodeError(this.getNode(), error).message);
			}
		}
		await leaveIfCancelled(signal);
	} catch (error) {
		// Only a Stop ends the look early. n8n may not show an error raised after it: the log names the contact in doubt.
		this.logger.warn(`Prospecting: the lead for ${look.contact} may exist: its create's answer was lost and the execution was stopped while looking for it (${result.searches} searches). Check for it before sending it again.`);
		const stopped = error as Error;
		throw stopped;
	}
	return result;
}

/**
 * The error of a Lead Create whose outcome stayed unknown (`lost`: its send's error, when this item sent it): which
 * contact, what was tried, how the look went, how to check before running the item again; never "safe to run again",
 * as a slow service may still create the lead.
 */
export function mayExistError(node: INode, lost: unknown, details: { contact: string; tried: string[]; itemIndex: number; search?: Awaited<ReturnType<typeof lookForLostLead>> }) {
	const { contact, search } = details;
	const message = `The lead for ${contact} may exist: the outcome of its create is unknown, and it was not sent again`;
	const error = lost === undefined ? new NodeOperationError(node, message) : asNodeError(node, lost);
	const searches = search && `${search.searches} search${search.searches === 1 ? '' : 'es'} over ${Math.round(search.spanSeconds * 10) / 10} s (GET /leads?search=${contact})`;
	const failed = search?.failures.length ?? 0;
	const looked = search && (failed === 0
		? `${searches} found no lead this create sent (one created since the send, with every field sent).`
		: `${searches}: ${failed === search.searches ? 'every one' : `${failed} of them`} failed (${search.failures.at(-1)}), so whether the lead exists is not known.`);
	error.message = message;
	error.description = [
		...details.tried.map((line) => `Tried: ${line}.`),
		...(looked ? [looked] : []),
		'The service may still create it (a slow service can apply a create long after its answer was lost), and it does not refuse duplicates, so sending it again could make a second lead.',
		`Check before running this item again: search for ${contact} in the app, or with Lead → Get Many (Search). Skip If a Lead With This Contact Exists returns the lead when it exists by then. To send it again when the searches find nothing, turn on Send Again If Not Found (May Duplicate), or raise Look for a Lost Lead For.`,
		`(item ${details.itemIndex}, POST /leads)`,
	].join('\n');
	return withOutcome(error, 'unknown');
}
