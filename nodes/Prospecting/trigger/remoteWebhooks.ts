import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import { unwrapRecord } from '../shared/records';
import { listWebhooks } from '../shared/webhooks';
import { asNodeError } from '../helpers/errors';
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

/** The HTTP status carried by an error from the transport, wherever that layer put it. */
export function httpStatusOf(error: unknown): number | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current !== null && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const record = current as IDataObject & { response?: { status?: unknown } };
		for (const value of [record.httpCode, record.statusCode, record.status, record.response?.status]) {
			const status = Number(value);
			if (Number.isInteger(status) && status >= 100 && status <= 599) return status;
		}
		current = record.cause;
	}
	return undefined;
}

/** Compares webhook URLs as the service may echo them, ignoring a trailing slash. */
export function sameUrl(left: unknown, right: string): boolean {
	return typeof left === 'string' && left.replace(/\/+$/, '') === right.replace(/\/+$/, '');
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
		expect: 'recordWithId',
	})) as unknown;
	const webhook = unwrapRecord(response) ?? {};
	return {
		id: String(webhook.id),
		secret: typeof webhook.secret === 'string' && webhook.secret !== '' ? webhook.secret : undefined,
		events: webhook.events,
	};
}

/** DELETE /webhooks/{id}. A 404 means it is already gone, which is what deletion wants. */
export async function deleteRemoteWebhook(
	this: IHookFunctions,
	id: string,
): Promise<'deleted' | 'already gone'> {
	try {
		await prospectingApiRequest.call(this, 'DELETE', `/webhooks/${encodeURIComponent(id)}`);
		return 'deleted';
	} catch (error) {
		if (httpStatusOf(error) === 404) return 'already gone';
		// As it is: its outcome (was the delete applied?) is what the caller decides on.
		throw asNodeError(this.getNode(), error);
	}
}
