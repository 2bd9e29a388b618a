import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { WriteAnswerExpectation } from '../../helpers/writeAnswer';
import { inputError } from '../inputError';
import { textValue } from '../parameters';
import { collectContacts, contactKey, contactKeys, firstContact, recordContactKeys, type LeadContacts, type LeadRecord } from './contacts';

/** What Lead Create sends: the fields of its POST /leads body, and its contacts as a search matches them. */
export interface SentLead extends LeadContacts {
	name: string;
	company: string;
}

export interface LeadToCreate {
	sent: SentLead;
	body: IDataObject;
	/** Its contacts as a search matches them (e-mails in lower case, numbers as digits). */
	keys: string[];
	/** The contact messages name and lost-lead searches look for: its first e-mail, phone or mobile. */
	contact: string;
}

/** The lead an item creates, from the node's parameters; an item without a contact fails naming the fields. */
export function leadFromParameters(this: IExecuteFunctions, i: number): LeadToCreate {
	const name = textValue.call(this, i, 'name', this.getNodeParameter('name', i));
	const company = textValue.call(this, i, 'company', this.getNodeParameter('company', i));
	const additionalFields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const contacts = collectContacts.call(this, i, { email: this.getNodeParameter('email', i), phone: this.getNodeParameter('phone', i), additionalFields });
	if (contacts.emails.length + contacts.phones.length + contacts.mobiles.length === 0) {
		throw inputError(this.getNode(), i, 'email / phone / mobile', 'a lead needs at least one contact: fill Email, Phone, or a contact under Additional Fields');
	}
	const body: IDataObject = {};
	if (name) body.name = name;
	if (company) body.company = company;
	for (const kind of ['emails', 'phones', 'mobiles'] as const) if (contacts[kind].length) body[kind] = contacts[kind];
	const sent = { name, company, ...contacts };
	return { sent, body, keys: contactKeys(contacts), contact: firstContact(contacts) };
}

const sameText = (a: unknown, b: string) => String(a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

/** A field the record does not carry cannot be compared; one it carries must hold every contact sent. */
function carriesAll(record: LeadRecord, kind: keyof LeadContacts, sent: LeadContacts): boolean {
	if (sent[kind].length === 0 || !(kind in record)) return true;
	const held = recordContactKeys(record, [kind]);
	return sent[kind].every((item) => held.has(contactKey(kind, item.value)));
}

/**
 * Whether a lead from the service matches every field sent that it carries: name and company when sent, and each
 * e-mail, phone and mobile. A field not sent is not compared (the service may fill it).
 */
export function matchesEverythingSent(lead: LeadRecord, sent: SentLead): boolean {
	const record = lead as Record<string, unknown>;
	if (sent.name && 'name' in record && !sameText(record.name, sent.name)) return false;
	if (sent.company && 'company' in record && !sameText(record.company, sent.company)) return false;
	return (['emails', 'phones', 'mobiles'] as const).every((kind) => carriesAll(record, kind, sent));
}

/**
 * Whether a lead found after a lost create can be the one this create sent: created at or after `earliestCreatedAt`
 * (the send on the service's clock, less its margin) and matching every field sent. An older lead with the same
 * contact is never taken for it. Limit: the API takes no client id, so an identical lead made in that margin by
 * someone else cannot be told apart.
 */
export function isTheLeadSent(record: IDataObject, sent: SentLead, earliestCreatedAt: number): boolean {
	const createdAt = Date.parse(String(record.createdAt ?? ''));
	return Number.isFinite(createdAt) && createdAt >= earliestCreatedAt && matchesEverythingSent(record, sent);
}

/**
 * A create's answer is the lead sent: a record with its id, not one known before the send, that carries a contact sent
 * and every field sent it shows, and, when it shows when it was created, not before the send (`earliestCreatedAt`,
 * on the service's clock).
 */
export const theLeadSent = (sent: SentLead, before: { known: string[]; earliestCreatedAt: () => number }): WriteAnswerExpectation => ({
	record: 'required',
	isWritten: (record) => {
		const carried = recordContactKeys(record);
		const createdAt = Date.parse(String(record.createdAt ?? ''));
		const inTime = !Number.isFinite(createdAt) || createdAt >= before.earliestCreatedAt();
		const fresh = !before.known.includes(String(record.id));
		return fresh && inTime && contactKeys(sent).some((key) => carried.has(key)) && matchesEverythingSent(record, sent);
	},
});
