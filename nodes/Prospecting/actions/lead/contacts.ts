import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ProspectingRequestOptions } from '../../transport/request';
import { prospectingApiPaginate } from '../../shared/pagination';
import { checkBeforeSending } from '../helpers/checkBeforeSending';
import { inputError } from '../inputError';
import { quoted, textValue } from '../parameters';

export interface ContactItem {
	value: string;
	label: string;
}

export interface LeadContacts {
	emails: ContactItem[];
	phones: ContactItem[];
	mobiles: ContactItem[];
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_CHARACTERS = /^\+?[0-9().\-\s]+$/;

function digits(value: string): string {
	return value.replace(/\D/g, '');
}

/** The longest address (RFC 5321); checked before the pattern, which is slow on huge texts. */
const MAX_EMAIL_LENGTH = 254;
/** Far more than any phone number with punctuation. */
const MAX_PHONE_LENGTH = 40;
/** The digits of a phone number: a short local number at the least, an international one with extension at most. */
const MIN_PHONE_DIGITS = 6;
const MAX_PHONE_DIGITS = 20;

function checkEmail(this: IExecuteFunctions, i: number, field: string, value: string): void {
	if (value.length > MAX_EMAIL_LENGTH || !EMAIL_SHAPE.test(value)) {
		throw inputError(
			this.getNode(),
			i,
			field,
			`${quoted(value)} is not a valid email address`,
		);
	}
}

function checkPhone(this: IExecuteFunctions, i: number, field: string, value: string): void {
	const count = digits(value).length;
	if (value.length > MAX_PHONE_LENGTH || !PHONE_CHARACTERS.test(value) || count < MIN_PHONE_DIGITS || count > MAX_PHONE_DIGITS) {
		throw inputError(
			this.getNode(),
			i,
			field,
			`${quoted(value)} is not a valid phone number (digits, spaces, + ( ) - . only; 6 to 20 digits)`,
		);
	}
}

/**
 * Gathers the contacts of one lead from the single fields and the lists under Additional
 * Fields, checking each one's shape. Empty entries are skipped; the same value is sent once.
 */
export function collectContacts(
	this: IExecuteFunctions,
	i: number,
	input: { email: unknown; phone: unknown; additionalFields: IDataObject },
): LeadContacts {
	const { additionalFields } = input;
	const defaultLabel =
		textValue.call(this, i, 'additionalFields.contactLabel', additionalFields.contactLabel) || 'Principal';
	const contacts: LeadContacts = { emails: [], phones: [], mobiles: [] };
	/** The contacts added so far, compared as a search matches them: an email in lower case, a number by its digits. */
	const sent = new Set<string>();

	const add = (kind: keyof LeadContacts, field: string, rawValue: unknown, label?: { field: string; raw: unknown }) => {
		const value = textValue.call(this, i, field, rawValue);
		if (value === '') return;
		if (kind === 'emails') checkEmail.call(this, i, field, value);
		else checkPhone.call(this, i, field, value);
		const labelText = label ? textValue.call(this, i, label.field, label.raw) : '';
		// The same contact given twice (Email and an Additional Fields email, in another case or punctuation) is sent once.
		const key = `${kind}:${kind === 'emails' ? value.toLowerCase() : digits(value)}`;
		if (sent.has(key)) return;
		sent.add(key);
		contacts[kind].push({ value, label: labelText || defaultLabel });
	};

	add('emails', 'email', input.email);
	add('phones', 'phone', input.phone);
	add('mobiles', 'additionalFields.mobile', additionalFields.mobile);
	// n8n gives a fixed collection its declared shape (a list of { value, label }) whatever the workflow held.
	for (const kind of ['emails', 'phones', 'mobiles'] as const) {
		const collection = additionalFields[kind] as { values?: Array<{ value?: unknown; label?: unknown }> } | undefined;
		(collection?.values ?? []).forEach(({ value, label }, index) => {
			add(kind, `additionalFields.${kind}[${index}].value`, value, { field: `additionalFields.${kind}[${index}].label`, raw: label });
		});
	}
	return contacts;
}

function contactValues(record: IDataObject, kind: keyof LeadContacts): string[] {
	const list = record[kind];
	if (!Array.isArray(list)) return [];
	return list
		.map((entry) =>
			entry && typeof entry === 'object' ? (entry as IDataObject).value : (entry as unknown),
		)
		.filter(
			(value): value is string | number => typeof value === 'string' || typeof value === 'number',
		)
		.map(String);
}

/** Whether a lead from the service has one of these contacts (and this name, given trimmed, when there is one). */
export function leadMatches(record: IDataObject, contacts: LeadContacts, name: string): boolean {
	if (name && String(record.name ?? '').trim().toLowerCase() !== name.toLowerCase()) return false;
	const emails = new Set(contacts.emails.map((item) => item.value.toLowerCase()));
	const numbers = new Set(
		[...contacts.phones, ...contacts.mobiles].map((item) => digits(item.value)),
	);
	if (contactValues(record, 'emails').some((value) => emails.has(value.toLowerCase()))) return true;
	return [...contactValues(record, 'phones'), ...contactValues(record, 'mobiles')].some((value) =>
		numbers.has(digits(value)),
	);
}

/** The contacts as `leadMatches` compares them: emails in lower case, phones and mobiles as digits. */
export function contactKeys(contacts: LeadContacts): string[] {
	return [
		...contacts.emails.map((item) => `email:${item.value.toLowerCase()}`),
		...[...contacts.phones, ...contacts.mobiles].map((item) => `number:${digits(item.value)}`),
	];
}

/** Every lead the service's search returns for the first contact, oldest first (GET /leads?search=). */
export async function searchByContact(
	this: IExecuteFunctions,
	contacts: LeadContacts,
	settings: ProspectingRequestOptions,
): Promise<IDataObject[]> {
	return await prospectingApiPaginate.call(this, '/leads', {
		...settings,
		returnAll: true,
		qs: { search: firstContact(contacts), orderBy: 'createdAt', orderDirection: 'asc' },
	});
}

/** The contact a message names for a lead, and its search looks for: its first email, phone or mobile. */
export function firstContact(contacts: LeadContacts): string {
	// Lead Create refuses an item without a contact before anything else.
	return (contacts.emails[0] ?? contacts.phones[0] ?? contacts.mobiles[0])!.value;
}

/**
 * Looks for a lead with the same contact (and name, when given) with GET /leads?search=, as
 * the service advises before repeating a creation. Returns the oldest match. It runs before the create is sent, so
 * when it fails nothing was sent, whatever the search's own error says (a refused search is not a refused lead).
 */
export async function findExistingLead(
	this: IExecuteFunctions,
	contacts: LeadContacts,
	name: string,
	settings: ProspectingRequestOptions,
): Promise<IDataObject | undefined> {
	const why = `Skip If a Lead With This Contact Exists could not search for ${firstContact(contacts)} (GET /leads)`;
	const candidates = await checkBeforeSending(this.getNode(), { record: 'lead', why }, async () =>
		await searchByContact.call(this, contacts, settings),
	);
	return candidates.find((record) => leadMatches(record, contacts, name));
}
