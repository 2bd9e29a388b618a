import type { IDataObject } from 'n8n-workflow';

import type { ProspectingContext } from '../helpers/account';
import type { ProspectingRequestOptions } from '../transport/request';
import { buildApiError } from '../helpers/nodeError';
import type { WriteAnswerExpectation } from '../helpers/writeAnswer';
import { prospectingApiRequest } from '../transport/request';

/** GET /webhooks answers `{ data }` with every webhook of the project at once: no pages. */
export async function listWebhooks(
	this: ProspectingContext,
	settings: ProspectingRequestOptions = {},
): Promise<IDataObject[]> {
	const body = await prospectingApiRequest.call(this, 'GET', '/webhooks', settings);
	const data = Array.isArray(body) ? body : (body as IDataObject | undefined)?.data;
	if (!Array.isArray(data)) {
		throw buildApiError(this.getNode(), {
			message: 'The answer for /webhooks has no data list',
			description: `Expected an object with a "data" array. (item ${settings.itemIndex ?? 0}, GET /webhooks)`,
			itemIndex: settings.itemIndex,
		});
	}
	return data as IDataObject[];
}

/** Compares webhook URLs as the service may echo them, ignoring a trailing slash. */
export function sameUrl(left: unknown, right: string): boolean {
	return typeof left === 'string' && left.replace(/\/+$/, '') === right.replace(/\/+$/, '');
}

/** A create's answer is the webhook sent: a record with its id, and the name and URL sent where it shows them. */
export const theWebhookSent = (sent: { name: string; url: string }): WriteAnswerExpectation => ({
	record: 'required',
	isWritten: (record) => (record.name === undefined || record.name === sent.name) && (record.url === undefined || sameUrl(record.url, sent.url)),
});

/** A delete's answer, when it names a webhook, names the one deleted. */
export const theWebhookDeleted = (id: string): WriteAnswerExpectation => ({
	record: 'optional',
	isWritten: (record) => record.id === undefined || String(record.id) === id,
});
