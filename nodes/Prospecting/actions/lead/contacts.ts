import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { contactValue, textValue } from '../parameters';

type Kind = 'emails' | 'phones' | 'mobiles';
export const KINDS: Kind[] = ['emails', 'phones', 'mobiles'];
/** A lead's contacts of each kind, as the service takes them. */
export type LeadContacts = Record<Kind, Array<{ value: string; label: string }>>;

/**
 * A contact as the service's search matches it (the spec says the search matches e-mail and phone, not how): an
 * e-mail whatever its case and spaces, a phone or mobile by its digits whatever the punctuation.
 */
const contactKey = (kind: Kind, value: string) => (kind === 'emails' ? `email:${value.trim().toLowerCase()}` : `number:${value.replace(/\D/g, '')}`);

/** The contacts a lead holds (or a create sends), of these kinds, as keys. */
export function contactKeysOf(lead: object, kinds: Kind[] = KINDS): Set<string> {
	const record = lead as Record<string, unknown>;
	const values = (kind: Kind) => (Array.isArray(record[kind]) ? (record[kind] as unknown[]) : [])
		.map((entry) => (entry && typeof entry === 'object' ? (entry as IDataObject).value : entry))
		.filter((value): value is string | number => typeof value === 'string' || typeof value === 'number');
	return new Set(kinds.flatMap((kind) => values(kind).map((value) => contactKey(kind, String(value)))));
}

/**
 * Gathers the contacts of one lead from Email, Phone and the fields under Additional Fields, checking each one's shape.
 * Empty entries are skipped; the same contact (in another case or punctuation) is sent once.
 */
export function collectContacts(this: IExecuteFunctions, i: number): LeadContacts {
	const additionalFields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const defaultLabel = textValue.call(this, i, 'additionalFields.contactLabel', additionalFields.contactLabel) || 'Principal';
	const contacts: LeadContacts = { emails: [], phones: [], mobiles: [] };
	const add = (kind: Kind, field: string, raw: unknown, label?: { field: string; raw: unknown }) => {
		const value = contactValue.call(this, i, field, raw, kind === 'emails' ? 'email' : 'phone');
		if (value === '') return;
		const labelText = label ? textValue.call(this, i, label.field, label.raw) : '';
		// A phone and a mobile with the same digits are two contacts; the same one twice is sent once.
		if (contacts[kind].some((item) => contactKey(kind, item.value) === contactKey(kind, value))) return;
		contacts[kind].push({ value, label: labelText || defaultLabel });
	};
	add('emails', 'email', this.getNodeParameter('email', i));
	add('phones', 'phone', this.getNodeParameter('phone', i));
	add('mobiles', 'additionalFields.mobile', additionalFields.mobile);
	// n8n gives a fixed collection its declared shape (a list of { value, label }) whatever the workflow held.
	for (const kind of KINDS) {
		const collection = additionalFields[kind] as { values?: Array<{ value?: unknown; label?: unknown }> } | undefined;
		(collection?.values ?? []).forEach(({ value, label }, index) => {
			add(kind, `additionalFields.${kind}[${index}].value`, value, { field: `additionalFields.${kind}[${index}].label`, raw: label });
		});
	}
	return contacts;
}
