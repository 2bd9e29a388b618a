/** Request-body checks that name the exact field (for example `emails[0].value`) in Portuguese. */
import { validationError, type FieldError } from './errors';
import type { ContactItem } from './types';

export function asObject(body: unknown): Record<string, unknown> {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) {
		throw validationError([{ field: 'body', message: 'O corpo deve ser um objeto JSON.' }]);
	}
	return body as Record<string, unknown>;
}

function optionalString(body: Record<string, unknown>, field: string, errors: FieldError[]): string | undefined {
	const value = body[field];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') {
		errors.push({ field, message: 'Deve ser um texto.' });
		return undefined;
	}
	return value;
}

function requiredString(body: Record<string, unknown>, field: string, errors: FieldError[]): string | undefined {
	const value = body[field];
	if (value === undefined || value === null) {
		errors.push({ field, message: 'Campo obrigatório.' });
		return undefined;
	}
	if (typeof value !== 'string') {
		errors.push({ field, message: 'Deve ser um texto.' });
		return undefined;
	}
	if (!value.trim()) {
		errors.push({ field, message: 'Não pode ser vazio.' });
		return undefined;
	}
	return value;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function contactList(
	body: Record<string, unknown>,
	field: 'emails' | 'phones' | 'mobiles',
	errors: FieldError[],
): ContactItem[] {
	const value = body[field];
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value)) {
		errors.push({ field, message: 'Deve ser uma lista de objetos { value, label }.' });
		return [];
	}
	const items: ContactItem[] = [];
	value.forEach((item, index) => {
		const path = `${field}[${index}]`;
		if (item === null || typeof item !== 'object' || Array.isArray(item)) {
			errors.push({ field: path, message: 'Deve ser um objeto { value, label }.' });
			return;
		}
		const record = item as Record<string, unknown>;
		let ok = true;
		if (record.value === undefined || record.value === null) {
			errors.push({ field: `${path}.value`, message: 'Campo obrigatório.' });
			ok = false;
		} else if (typeof record.value !== 'string') {
			errors.push({ field: `${path}.value`, message: 'Deve ser um texto.' });
			ok = false;
		} else if (!record.value.trim()) {
			errors.push({ field: `${path}.value`, message: 'Não pode ser vazio.' });
			ok = false;
		} else if (field === 'emails' && !EMAIL_PATTERN.test(record.value.trim())) {
			errors.push({ field: `${path}.value`, message: 'E-mail inválido.' });
			ok = false;
		} else if (field !== 'emails' && record.value.replace(/\D/g, '').length < 8) {
			errors.push({ field: `${path}.value`, message: 'Telefone inválido: informe ao menos 8 dígitos.' });
			ok = false;
		}
		if (record.label === undefined || record.label === null) {
			errors.push({ field: `${path}.label`, message: 'Campo obrigatório.' });
			ok = false;
		} else if (typeof record.label !== 'string') {
			errors.push({ field: `${path}.label`, message: 'Deve ser um texto.' });
			ok = false;
		}
		if (ok) items.push({ value: (record.value as string).trim(), label: record.label as string });
	});
	return items;
}

export interface NewLead {
	name: string;
	company: string;
	emails: ContactItem[];
	phones: ContactItem[];
	mobiles: ContactItem[];
}

export function validateNewLead(raw: unknown): NewLead {
	const body = asObject(raw);
	const errors: FieldError[] = [];
	const name = optionalString(body, 'name', errors);
	const company = optionalString(body, 'company', errors);
	const emails = contactList(body, 'emails', errors);
	const phones = contactList(body, 'phones', errors);
	const mobiles = contactList(body, 'mobiles', errors);
	const sentContacts = ['emails', 'phones', 'mobiles'].some(
		(f) => Array.isArray(body[f]) && (body[f] as unknown[]).length > 0,
	);
	const contactErrors = errors.some((e) => /^(emails|phones|mobiles)\b/.test(e.field));
	if (!sentContacts && !contactErrors) {
		errors.push({
			field: 'emails',
			message: 'O lead precisa de ao menos um contato em emails, phones ou mobiles.',
		});
	}
	if (errors.length) throw validationError(errors);
	return { name: name ?? '', company: company ?? '', emails, phones, mobiles };
}

export function validateAddLead(raw: unknown): { leadId: string; responsibleId?: string } {
	const body = asObject(raw);
	const errors: FieldError[] = [];
	const leadId = requiredString(body, 'leadId', errors);
	const responsibleId = optionalString(body, 'responsibleId', errors);
	if (errors.length) throw validationError(errors);
	return { leadId: leadId!, responsibleId: responsibleId?.trim() || undefined };
}

export function validateNewWebhook(raw: unknown): { name: string; url: string; events: string[] } {
	const body = asObject(raw);
	const errors: FieldError[] = [];
	const name = requiredString(body, 'name', errors);
	const url = requiredString(body, 'url', errors);
	if (url !== undefined) {
		let parsed: URL | undefined;
		try {
			parsed = new URL(url.trim());
		} catch {
			parsed = undefined;
		}
		if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) {
			errors.push({ field: 'url', message: 'Deve ser uma URL absoluta http(s), por exemplo https://exemplo.com/webhook.' });
		}
	}
	const events = body.events;
	const cleanEvents: string[] = [];
	if (events === undefined || events === null) {
		errors.push({ field: 'events', message: 'Campo obrigatório.' });
	} else if (!Array.isArray(events)) {
		errors.push({ field: 'events', message: 'Deve ser uma lista de textos, por exemplo ["prospection.won"].' });
	} else if (events.length === 0) {
		errors.push({ field: 'events', message: 'Informe ao menos um evento.' });
	} else {
		events.forEach((event, index) => {
			if (typeof event !== 'string') errors.push({ field: `events[${index}]`, message: 'Deve ser um texto.' });
			else if (!event.trim()) errors.push({ field: `events[${index}]`, message: 'Não pode ser vazio.' });
			else if (!cleanEvents.includes(event.trim())) cleanEvents.push(event.trim());
		});
	}
	if (errors.length) throw validationError(errors);
	return { name: name!, url: url!.trim(), events: cleanEvents };
}
