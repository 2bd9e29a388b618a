import type { IHookFunctions } from 'n8n-workflow';

import { unwrapRecord } from '../shared/records';
import { listWebhooks, theWebhookDeleted, theWebhookSent } from '../shared/webhooks';
import { asNodeError } from '../helpers/nodeError';
import { isNotFound } from '../helpers/statusError';
import { prospectingApiRequest } from '../transport/request';

/** A webhook as the service lists it. The secret is never part of a listing. */
export interface RemoteWebhook {
	id: string;
	url: string;
	events: unknown;
}

/** A webhook as the service returns it once, on creation: its secret, when the answer carried one. */
export interface CreatedWebhook {
	id: string;
	secret?: string;
	events: unknown;
}

/** All webhooks of the project, as the trigger compares them. */
export async function listRemoteWebhooks(this: IHookFunctions): Promise<RemoteWebhook[]> {
	const webhooks = await listWebhooks.call(this);
	return webhooks
		.filter((item) => item !== null && typeof item === 'object')
		.filter((item) => item.id !== undefined && item.id !== null)
		.map((item) => ({ id: String(item.id), url: String(item.url ?? ''), events: item.events }));
}

/**
 * POST /webhooks. The response is the only place the secret ever appears. An answer that is not the created record
 * with its id (a proxy's page, an empty body) fails with an unknown outcome: the service may have created it.
 */
export async function createRemoteWebhook(
	this: IHookFunctions,
	body: { name: string; url: string; events: string[] },
): Promise<CreatedWebhook> {
	const response = (await prospectingApiRequest.call(this, 'POST', '/webhooks', {
		body,
		expect: theWebhookSent(body),
	})) as unknown;
	const webhook = unwrapRecord(response) ?? {};
	return {
		id: String(webhook.id),
		secret: typeof webhook.secret === 'string' && webhook.secret !== '' ? webhook.secret : undefined,
		events: webhook.events,
	};
}

/** DELETE /webhooks/{id}. The service's 404 means it is already gone, which is what deletion wants. */
export async function deleteRemoteWebhook(
	this: IHookFunctions,
	id: string,
): Promise<'deleted' | 'already gone'> {
	try {
		await prospectingApiRequest.call(this, 'DELETE', `/webhooks/${encodeURIComponent(id)}`, { expect: theWebhookDeleted(id) });
		return 'deleted';
	} catch (error) {
		if (isNotFound(error)) return 'already gone';
		// As it is: its outcome (was the delete applied?) is what the caller decides on.
		throw asNodeError(this.getNode(), error);
	}
}
