import { createHash } from 'node:crypto';

import type {
	IAdditionalCredentialOptions,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { inCredential } from './credentialFault';
import { asNodeError } from './nodeError';
import { withOutcome } from './outcome';
import { refusedHost } from './refusedHosts';

export type ProspectingContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IWebhookFunctions;

/** How several values of one filter are written in the query string (the spec does not say). */
export type MultiValueFormat = 'repeat' | 'brackets' | 'comma';

export interface ProspectingCredentials {
	baseUrl: string;
	apiKey: string;
	rateLimitWindowSeconds?: number;
	readsPerWindow?: number;
	writesPerWindow?: number;
	clientsSharingKey?: number;
	rateLimitResetUnit?: 'auto' | 'epochSeconds' | 'epochMs' | 'secondsFromNow';
}

/** Normalises the credential's base URL: trims, drops trailing slashes and a trailing /api/v1. */
export function normaliseBaseUrl(baseUrl: string): string {
	return String(baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api\/v1$/i, '')
		.replace(/\/+$/, '');
}

/** Drops empty filters and writes multi-value filters in the chosen format. */
export function buildQuery(qs: IDataObject | undefined, format: MultiValueFormat): IDataObject {
	const query: IDataObject = {};
	for (const [name, value] of Object.entries(qs ?? {})) {
		if (value === undefined || value === null || value === '') continue;
		if (Array.isArray(value)) {
			const values = value.map((entry) => String(entry)).filter((entry) => entry !== '');
			if (values.length === 0) continue;
			query[name] = format === 'comma' ? values.join(',') : values;
			continue;
		}
		query[name] = value;
	}
	return query;
}

/** Decrypted once per node run: a page walk makes many calls with the same credential. */
const credentialsByContext = new WeakMap<object, Promise<ProspectingCredentials>>();

export async function credentialsOf(context: ProspectingContext): Promise<ProspectingCredentials> {
	let pending = credentialsByContext.get(context);
	if (!pending) {
		// Without its credential (deleted, not set) no call is made: a write it stops was not sent.
		pending = (context.getCredentials('prospectingApi') as unknown as Promise<ProspectingCredentials>).catch((error: unknown) => {
			throw inCredential(withOutcome(asNodeError(context.getNode(), error), 'notSent'));
		});
		credentialsByContext.set(context, pending);
		// A failed read is not kept, so the next call asks again.
		pending.catch(() => credentialsByContext.delete(context));
	}
	return await pending;
}

/** The account a key reaches (each key belongs to one account), named without keeping the key. */
export function budgetKey(apiKey: string): string {
	return createHash('sha256').update(apiKey).digest('hex').slice(0, 32);
}

/** The account the credential's key reaches, as the rate budgets name it, whatever base URL leads to it. */
export async function accountKey(context: ProspectingContext): Promise<string> {
	const credentials = await credentialsOf(context);
	return budgetKey(String(credentials?.apiKey ?? ''));
}

/**
 * The credential of a call, its base URL normalised and its key checked, or an error naming the item and the field.
 * These errors come before anything is sent: a write they stop was not sent.
 */
export async function checkedAccount(this: ProspectingContext, itemIndex?: number) {
	const credentials = await credentialsOf(this);
	const secret = String(credentials?.apiKey ?? '');
	const baseUrl = normaliseBaseUrl(credentials?.baseUrl);
	const refuse = (message: string, description?: string) =>
		inCredential(withOutcome(new NodeOperationError(this.getNode(), message, { itemIndex, description }), 'notSent'));
	if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) {
		throw refuse('The base URL in the Prospecting API credential must start with http:// or https://');
	}
	const host = refusedHost(baseUrl);
	if (host !== undefined) {
		throw refuse(
			`The Base URL in the Prospecting API credential names ${host}, a link-local or cloud metadata address: nothing was sent`,
			'Such an address answers with the secrets of the machine n8n runs on, never as the prospecting service. Put the address of the service in the Base URL of the credential.',
		);
	}
	if (secret.trim() === '') {
		throw refuse('The API key in the Prospecting API credential is empty');
	}
	// n8n would read the credential from its database again for every call it authenticates: hand it the one read.
	const { id, name } = this.getNode().credentials?.prospectingApi ?? { id: null, name: '' };
	const authentication: IAdditionalCredentialOptions = {
		credentialsDecrypted: { id: id ?? '', name, type: 'prospectingApi', data: { ...credentials } },
	};
	return { credentials, baseUrl, secret, authentication };
}
