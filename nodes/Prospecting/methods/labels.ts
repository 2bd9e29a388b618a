/** How the pickers name records, so that a user can tell them apart. */
import type { IDataObject } from 'n8n-workflow';

import { prospectionStatusOptions } from '../shared/statuses';

function text(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

function firstText(record: IDataObject, keys: string[]): string {
	for (const key of keys) {
		const value = text(record[key]);
		if (value !== '') return value;
	}
	return '';
}

/** The first value of a contact list ({ value, label } items). */
function firstContact(list: unknown): string {
	if (!Array.isArray(list)) return '';
	for (const entry of list) {
		const value = text(entry && typeof entry === 'object' ? (entry as IDataObject).value : entry);
		if (value !== '') return value;
	}
	return '';
}

/** "Name — email (company)", with whatever of those the lead has. */
export function leadLabel(lead: IDataObject): string {
	const name = text(lead.name);
	const contact =
		firstContact(lead.emails) || firstContact(lead.mobiles) || firstContact(lead.phones);
	const company = text(lead.company);
	let label = [name, contact].filter((part) => part !== '').join(' — ');
	if (company) label = label ? `${label} (${company})` : company;
	return label || String(lead.id);
}

const statusNames = new Map(
	prospectionStatusOptions.map((option) => [String(option.value), option.name]),
);

/** "Lead ld_1 · Won (Ganha) · 2026-11-23": a prospection has no name of its own. */
export function prospectionLabel(prospection: IDataObject): string {
	const status = text(prospection.status);
	const parts = [
		text(prospection.leadId)
			? `Lead ${text(prospection.leadId)}`
			: `Prospection ${String(prospection.id)}`,
		statusNames.get(status) ?? status,
		text(prospection.createdAt).slice(0, 10),
	];
	return parts.filter((part) => part !== '').join(' · ');
}

/** A routine's name, under whichever key the service sends it. */
export function routineLabel(routine: IDataObject): string {
	return firstText(routine, ['name', 'title', 'label']) || String(routine.id);
}

/** "Name — URL". */
export function webhookLabel(webhook: IDataObject): string {
	return (
		[text(webhook.name), text(webhook.url)].filter((part) => part !== '').join(' — ') ||
		String(webhook.id)
	);
}
