import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ProspectingRequestOptions } from '../../transport/request';
import { asNodeError } from '../../helpers/errors';
import { withOutcome } from '../../helpers/outcome';
import type { LeadContacts } from './contacts';
import { firstContact, searchByContact } from './contacts';
import type { SentLead } from './sentLead';
import { matchesEverythingSent } from './sentLead';

/**
 * An execution retried from the executions list runs this item again, and the failed execution may already have
 * created its lead: the newest lead matching every field sent is that one. When the search fails, nothing is sent.
 */
export async function checkBeforeRetry(
	this: IExecuteFunctions,
	check: { contacts: LeadContacts; sent: SentLead; settings: ProspectingRequestOptions; itemIndex: number },
): Promise<IDataObject | undefined> {
	try {
		const candidates = await searchByContact.call(this, check.contacts, check.settings);
		return [...candidates].reverse().find((record) => matchesEverythingSent(record, check.sent));
	} catch (error) {
		// A Stop during the search needs nothing here: n8n ends a cancelled execution as cancelled, whatever it throws.
		const failed = asNodeError(this.getNode(), error);
		const contact = firstContact(check.contacts);
		failed.description = [
			`This execution retries a failed one, which may have created the lead for ${contact}; the search for it failed, so nothing was sent. Run the retry again once the service answers.`,
			// The service's words and the call that failed (item and endpoint), as the request told them.
			failed.description,
		].join('\n');
		throw withOutcome(failed, 'notSent');
	}
}
