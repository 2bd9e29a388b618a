import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ProspectingRequestOptions } from '../../transport/request';
import { checkBeforeSending } from '../helpers/checkBeforeSending';
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
	check: { contacts: LeadContacts; sent: SentLead; settings: ProspectingRequestOptions },
): Promise<IDataObject | undefined> {
	const why = `this execution retries a failed one, which may have created it, and the search for ${firstContact(check.contacts)} (GET /leads) failed`;
	const candidates = await checkBeforeSending(this.getNode(), { record: 'lead', why }, async () =>
		await searchByContact.call(this, check.contacts, check.settings),
	);
	return [...candidates].reverse().find((record) => matchesEverythingSent(record, check.sent));
}
