import type { INode } from 'n8n-workflow';

import { asNodeError } from '../../transport';
import type { LeadContacts } from './contacts';
import type { LostLeadSearch } from './lostLead';

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 'es'}`;
}

/**
 * The error of a Lead Create whose outcome stayed unknown: the lead may exist. Says which contact, what was
 * tried, and how to check before running the item again. Never "safe to run again": a slow service may still
 * create the lead after the last search.
 */
export function mayExistError(
	node: INode,
	lost: unknown,
	details: { contacts: LeadContacts; tried: string[]; search: LostLeadSearch; itemIndex: number },
) {
	const { contacts, tried, search, itemIndex } = details;
	const contact = (contacts.emails[0] ?? contacts.phones[0] ?? contacts.mobiles[0])?.value ?? '';
	const error = asNodeError(node, lost);
	const searches = `${plural(search.searches, 'search')} over ${Math.round(search.spanSeconds * 10) / 10} s (GET /leads?search=${contact})`;
	const searched =
		search.lastFailure === undefined
			? `${searches} found no lead with this contact.`
			: `${searches}: the last one failed (${search.lastFailure}), so whether the lead exists is not known.`;
	error.message = `The lead for ${contact} may exist: the answer to its create was lost, and it was not sent again`;
	error.description = [
		...tried.map((line) => `Tried: ${line}.`),
		searched,
		'The service may still create it (a slow service can apply a create long after its answer timed out), and it does not refuse duplicates, so sending it again could make a second lead.',
		`Check before running this item again: search for ${contact} in the app, or with Lead → Get Many (Search). Skip If a Lead With This Contact Exists returns the lead when it exists by then. To send it again when the searches find nothing, turn on Send Again If Not Found (May Duplicate), or raise Look for a Lost Lead For.`,
		`(item ${itemIndex}, POST /leads)`,
	].join('\n');
	return error;
}
