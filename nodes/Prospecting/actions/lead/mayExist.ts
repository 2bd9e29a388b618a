import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../helpers/errors';
import { withOutcome } from '../../helpers/outcome';
import type { LostLeadSearch } from './search';

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 'es'}`;
}

/** The steps tried before an item failed, one line each, as every Lead Create error lists them. */
export function triedLines(tried: string[]): string[] {
	return tried.map((line) => `Tried: ${line}.`);
}

/** What the lost-lead search did: how many searches over how long, and whether any failed. */
function searchesLine(contact: string, search: LostLeadSearch): string {
	const searches = `${plural(search.searches, 'search')} over ${Math.round(search.spanSeconds * 10) / 10} s (GET /leads?search=${contact})`;
	const failed = search.failures.length;
	return failed === 0
		? `${searches} found no lead this create sent (one created since the send, with every field sent).`
		: `${searches}: ${failed === search.searches ? 'every one' : `${failed} of them`} failed (${search.failures.at(-1)}), so whether the lead exists is not known.`;
}

/**
 * The error of a Lead Create whose outcome stayed unknown: the lead may exist. Says which contact, what was
 * tried, and how to check before running the item again. Never "safe to run again": a slow service may still
 * create the lead after the last search. Carries the outcome 'unknown' for a workflow to branch on.
 */
export function mayExistError(
	node: INode,
	/** The error of the send whose answer was lost; none when this item did not send (an earlier try or execution did). */
	lost: unknown,
	/** What was tried, and the last look for the lead (none when a later send failed before any). */
	details: { contact: string; tried: string[]; itemIndex: number; search?: LostLeadSearch },
) {
	const { contact, tried, itemIndex, search } = details;
	const message = `The lead for ${contact} may exist: the outcome of its create is unknown, and it was not sent again`;
	const error = lost === undefined ? new NodeOperationError(node, message) : asNodeError(node, lost);
	error.message = message;
	error.description = [
		...triedLines(tried),
		...(search ? [searchesLine(contact, search)] : []),
		'The service may still create it (a slow service can apply a create long after its answer was lost), and it does not refuse duplicates, so sending it again could make a second lead.',
		`Check before running this item again: search for ${contact} in the app, or with Lead → Get Many (Search). Skip If a Lead With This Contact Exists returns the lead when it exists by then. To send it again when the searches find nothing, turn on Send Again If Not Found (May Duplicate), or raise Look for a Lost Lead For.`,
		`(item ${itemIndex}, POST /leads)`,
	].join('\n');
	return withOutcome(error, 'unknown');
}
