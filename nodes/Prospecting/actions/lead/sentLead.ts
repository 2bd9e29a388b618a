import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { inputError } from '../inputError';
import { textValue } from '../parameters';
import { KINDS, collectContacts, contactKeysOf, type LeadContacts } from './contacts';

/** What Lead Create sends: the fields of its POST /leads body. */
export type SentLead = LeadContacts & { name: string; company: string };

/**
 * The lead an item creates, from the node's parameters: what is sent, its body, its contacts as a search matches them
 * (`keys`), and the one messages name. An item without a contact fails naming the fields.
 */
export function leadFromParameters(this: IExecuteFunctions, i: number): { sent: SentLead; body: IDataObject; keys: string[]; contact: string } {
	const name = textValue.call(this, i, 'name', this.getNodeParameter('name', i));
	const company = textValue.call(this, i, 'company', this.getNodeParameter('company', i));
	const contacts = collectContacts.call(this, i);
	// The contact messages name and lost-lead searches look for: the first e-mail, phone or mobile.
	const contact = (contacts.emails[0] ?? contacts.phones[0] ?? contacts.mobiles[0])?.value;
	if (contact === undefined) {
		throw inputError(this.getNode(), i, 'email / phone / mobile', 'a lead needs at least one contact: fill Email, Phone, or a contact under Additional Fields');
	}
	// Only the fields filled are sent.
	const body: IDataObject = Object.fromEntries(Object.entries({ name, company, ...contacts }).filter(([, value]) => value.length > 0));
	return { sent: { name, company, ...contacts }, body, keys: [...contactKeysOf(contacts)], contact };
}
export type LeadToCreate = ReturnType<typeof leadFromParameters>;

const sameText = (a: unknown, b: string) => String(a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

/** Skip If Exists' rule: a lead with one of these contacts, and with this name when one is given. */
export function hasContactOf(lead: object, keys: string[], name: string): boolean {
	const held = contactKeysOf(lead);
	return (!name || sameText((lead as { name?: unknown }).name, name)) && keys.some((key) => held.has(key));
}

/**
 * Whether a lead matches every field sent that it shows: name and company when sent, and each e-mail, phone and mobile
 * (a field not sent is not compared: the service may fill it).
 */
export function matchesEverythingSent(lead: object, sent: SentLead): boolean {
	const record = lead as Record<string, unknown>;
	if (sent.name && 'name' in record && !sameText(record.name, sent.name)) return false;
	if (sent.company && 'company' in record && !sameText(record.company, sent.company)) return false;
	return KINDS.every((kind) => {
		const held = contactKeysOf(record, [kind]);
		return !(kind in record) || [...contactKeysOf(sent, [kind])].every((key) => held.has(key));
	});
}

/**
 * Whether a lead can be the one a create sent (`look`): not listed before the send, carrying a contact sent and every
 * field sent it shows, and created at `earliestCreatedAt` or later; one that does not show when it was created passes
 * only as the create's own answer (`answered`). Limit: the API takes no client id, so a lead identical in every field
 * and stamped within the clock's margin before the send (up to 2 s, serviceClock.ts) cannot be told apart.
 */
export function isTheLeadSent(lead: object, look: { sent: SentLead; known: string[] }, earliestCreatedAt: number, answered = false): boolean {
	const record = lead as Record<string, unknown>;
	const createdAt = Date.parse(String(record.createdAt ?? ''));
	const inTime = Number.isFinite(createdAt) ? createdAt >= earliestCreatedAt : answered;
	return inTime && !look.known.includes(String(record.id)) && hasContactOf(record, [...contactKeysOf(look.sent)], '') && matchesEverythingSent(record, look.sent);
}
