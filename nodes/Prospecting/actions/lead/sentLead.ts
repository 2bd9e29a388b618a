import type { IDataObject } from 'n8n-workflow';

import type { ContactItem, LeadContacts } from './contacts';

/** What Lead Create sent: the fields of its POST /leads body. */
export interface SentLead extends LeadContacts {
	name: string;
	company: string;
}

const sameText = (a: unknown, b: string) => String(a ?? '').trim().toLowerCase() === b.trim().toLowerCase();
const digits = (value: string) => value.replace(/\D/g, '');

function values(record: IDataObject, kind: keyof LeadContacts): string[] {
	const list = record[kind];
	if (!Array.isArray(list)) return [];
	return list
		.map((entry) => (entry && typeof entry === 'object' ? (entry as IDataObject).value : entry))
		.filter((value): value is string | number => typeof value === 'string' || typeof value === 'number')
		.map(String);
}

function carriesAll(record: IDataObject, kind: keyof LeadContacts, sent: ContactItem[]): boolean {
	// A field the answer does not carry cannot be compared; one it carries must hold every contact sent.
	if (sent.length === 0 || !(kind in record)) return true;
	const held = values(record, kind).map((value) => (kind === 'emails' ? value.toLowerCase() : digits(value)));
	return sent.every((item) => held.includes(kind === 'emails' ? item.value.toLowerCase() : digits(item.value)));
}

/**
 * Whether a lead from the service matches every field sent that it carries: name and company when sent, and each
 * email, phone and mobile. A field not sent is not compared (the service may fill it).
 */
export function matchesEverythingSent(record: IDataObject, sent: SentLead): boolean {
	if (sent.name && 'name' in record && !sameText(record.name, sent.name)) return false;
	if (sent.company && 'company' in record && !sameText(record.company, sent.company)) return false;
	return (['emails', 'phones', 'mobiles'] as const).every((kind) => carriesAll(record, kind, sent[kind]));
}

/**
 * Whether a lead found after a lost create can be the one this create sent: created at or after
 * `earliestCreatedAt` (the send, on the service's clock, less the margin) and matching every field sent. An
 * older lead with the same contact is never taken for it.
 *
 * Limit: the API takes no client id, so two identical creates sent in the same window (or an identical lead made
 * in the app then) cannot be told apart; either may be returned.
 */
export function isTheLeadSent(record: IDataObject, sent: SentLead, earliestCreatedAt: number): boolean {
	const createdAt = Date.parse(String(record.createdAt ?? ''));
	if (!Number.isFinite(createdAt) || createdAt < earliestCreatedAt) return false;
	return matchesEverythingSent(record, sent);
}
