import type { IDataObject } from 'n8n-workflow';

/**
 * What the node keeps about a webhook it registered, in its workflow static data.
 * One entry per webhook URL, so the test URL and the production URL of the same node live side by
 * side: "listen for test event" never overwrites the active workflow's webhook, nor the reverse.
 * The secret is shown by the service only once, at creation; it is kept here and nowhere else.
 */
export interface KeptWebhook {
	id: string;
	url: string;
	secret: string;
	events: string[];
	/** Registered for n8n's test URL (manual "listen for test event") rather than the production URL. */
	test: boolean;
	/** When it was kept; distinguishes registrations that reuse an id, e.g. after the service resets. */
	keptAt: string;
}

const STATIC_DATA_KEY = 'webhooks';

function entries(staticData: IDataObject): IDataObject {
	const value = staticData[STATIC_DATA_KEY];
	if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	const fresh: IDataObject = {};
	staticData[STATIC_DATA_KEY] = fresh;
	return fresh;
}

/** The entry kept for a URL as stored, possibly incomplete (for example without a secret). */
export function keptEntry(staticData: IDataObject, url: string): Partial<KeptWebhook> | undefined {
	const entry = entries(staticData)[url];
	return entry !== null && typeof entry === 'object' ? (entry as Partial<KeptWebhook>) : undefined;
}

/** Whether an entry has everything a delivery check and a later deletion need. */
export function isComplete(entry: Partial<KeptWebhook> | undefined): entry is KeptWebhook {
	return (
		entry !== undefined &&
		typeof entry.id === 'string' &&
		entry.id !== '' &&
		typeof entry.secret === 'string' &&
		entry.secret !== ''
	);
}

export function keepWebhook(staticData: IDataObject, webhook: KeptWebhook): void {
	entries(staticData)[webhook.url] = { ...webhook };
}

export function forgetWebhook(staticData: IDataObject, url: string): void {
	delete entries(staticData)[url];
}

/**
 * The complete entries a delivery may be checked against: the one for the production URL in a
 * production run, the test ones while listening for a test event, otherwise any kept one.
 */
export function keptForDelivery(
	staticData: IDataObject,
	options: { test: boolean; productionUrl: string | undefined },
): KeptWebhook[] {
	const all = Object.values(entries(staticData)).filter((entry) =>
		isComplete(entry as Partial<KeptWebhook>),
	) as unknown as KeptWebhook[];
	const preferred = options.test
		? all.filter((entry) => entry.test === true)
		: all.filter((entry) => entry.url === options.productionUrl);
	// Every kept secret belongs to a webhook this node registered, so falling back to the others
	// (for example after n8n's base URL changed) still accepts only deliveries the service signed.
	return preferred.length > 0 ? preferred : all;
}
