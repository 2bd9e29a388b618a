import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	errorFromNetwork,
	errorFromRateLimit,
	errorFromStatus,
	isNotSentCode,
	isResponseLostCode,
} from './errors';
import { cancelSignal, pause } from './pause';
import {
	budgetKey,
	callKind,
	getBudget,
	parseResetHeader,
	parseRetryAfter,
	readHeader,
} from './rateLimiter';
import { redactText, redactValue } from './secrets';

export type ProspectingContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IWebhookFunctions;

/** How several values of one filter are written in the query string (the spec does not say). */
export type MultiValueFormat = 'repeat' | 'brackets' | 'comma';

export interface ProspectingRequestOptions {
	qs?: IDataObject;
	body?: IDataObject;
	/** The input item the call is made for, so errors can name it. */
	itemIndex?: number;
	/** Total time to wait out 429 answers before giving up, in seconds. Default 300. */
	maxRateLimitWaitSeconds?: number;
	/** Names the record of the path for a 404, e.g. 'Routine "rt_1"'. */
	recordLabel?: string;
	/** Default 'repeat': `routineIds=a&routineIds=b`. */
	multiValueFormat?: MultiValueFormat;
	/** Per-call timeout in ms. Default 60 000. */
	timeoutMs?: number;
}

export const DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS = 300;
const DEFAULT_TIMEOUT_MS = 60_000;
/** Reads are safe to repeat: this many retries after 5xx, dropped connections or non-JSON answers. */
const MAX_READ_RETRIES = 4;
const READ_RETRY_BASE_MS = 300;
/** After a call's own 429 wait, how far past the maximum the budget's hold may still be (timer jitter). */
const OWN_REFUSAL_GRACE_MS = 1000;

interface ProspectingCredentials {
	baseUrl: string;
	apiKey: string;
	rateLimitWindowSeconds?: number;
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
		pending = context.getCredentials(
			'prospectingApi',
		) as unknown as Promise<ProspectingCredentials>;
		credentialsByContext.set(context, pending);
		// A failed read is not kept, so the next call asks again.
		pending.catch(() => credentialsByContext.delete(context));
	}
	return await pending;
}

/** The account the credential reaches (base URL and a hash of the key), as the rate budgets name it. */
export async function accountKey(context: ProspectingContext): Promise<string> {
	const credentials = await credentialsOf(context);
	return budgetKey(normaliseBaseUrl(credentials?.baseUrl), String(credentials?.apiKey ?? ''));
}

/** The network error code of a failed call, read from n8n's wrapper or the HTTP client's error. */
function networkCode(error: unknown): string | undefined {
	const candidates: unknown[] = [];
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		candidates.push(current);
		current = (current as { cause?: unknown }).cause;
	}
	for (const candidate of candidates) {
		// n8n's wrapper keeps the code in httpCode when it cannot keep the original error as cause.
		for (const field of ['code', 'httpCode'] as const) {
			const code = (candidate as Record<string, unknown>)[field];
			if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
		}
	}
	for (const candidate of candidates) {
		const texts = [
			(candidate as { message?: unknown }).message,
			...(((candidate as { messages?: unknown }).messages as unknown[] | undefined) ?? []),
		].map((text) => String(text ?? ''));
		for (const text of texts) {
			const match = /\b(E[A-Z]{4,}(?:_[A-Z]+)*)\b/.exec(text);
			if (match) return match[1];
		}
		const message = texts.join(' ').toLowerCase();
		if (message.includes('socket hang up')) return 'SOCKET_HANG_UP';
		if (message.includes('timeout')) return 'ETIMEDOUT';
		if (message.includes('aborted') || message.includes('canceled')) return 'ERR_CANCELED';
	}
	return undefined;
}

function isJsonBody(body: unknown): boolean {
	return body !== null && typeof body === 'object';
}

/**
 * One call to the service under /api/v1, authenticated by the prospectingApi credential.
 * `endpoint` starts with '/', e.g. '/leads'. Returns the parsed JSON body, free of the key.
 *
 * Shares the per-account rate budget with every other call of this process, waits out 429
 * answers (Retry-After, doubling) up to `maxRateLimitWaitSeconds`, retries reads that fail
 * (5xx, dropped connection, non-JSON answer) a bounded number of times, and never repeats a
 * write whose answer was lost: it raises an error that `isResponseLostError` recognises.
 */
export async function prospectingApiRequest(
	this: ProspectingContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ProspectingRequestOptions = {},
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of many shapes; callers check what they read.
): Promise<any> {
	const node = this.getNode();
	const credentials = await credentialsOf(this);
	const secret = String(credentials?.apiKey ?? '');
	const baseUrl = normaliseBaseUrl(credentials?.baseUrl);
	if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) {
		throw new NodeOperationError(
			node,
			'The base URL in the Prospecting API credential must start with http:// or https://',
			{ itemIndex: options.itemIndex },
		);
	}
	if (secret.trim() === '') {
		throw new NodeOperationError(node, 'The API key in the Prospecting API credential is empty', {
			itemIndex: options.itemIndex,
		});
	}

	const kind = callKind(method);
	const budget = getBudget(baseUrl, secret, kind, credentials?.rateLimitWindowSeconds);
	const format = options.multiValueFormat ?? 'repeat';
	const maxWaitMs =
		Math.max(0, options.maxRateLimitWaitSeconds ?? DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS) * 1000;
	const where = { method, endpoint, itemIndex: options.itemIndex };
	const signal = cancelSignal(this);

	const request: IHttpRequestOptions = {
		method,
		baseURL: `${baseUrl}/api/v1`,
		url: endpoint,
		qs: buildQuery(options.qs, format),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		arrayFormat: format === 'brackets' ? 'brackets' : 'repeat',
	};
	if (options.body !== undefined) request.body = options.body;

	let attempts = 0;
	let readFailures = 0;
	let refusals = 0;
	let rateLimitWaitedMs = 0;
	let lastRateLimitWaitMs = 0;

	/** The error for a call that would wait out refusals past its maximum, with what it waited so far. */
	const rateLimitError = (refusal: { status?: number; body?: unknown; askedWaitMs?: number }) =>
		errorFromRateLimit(
			node,
			{ ...where, ...refusal, waitedMs: rateLimitWaitedMs, maxWaitMs, refusals },
			secret,
		);

	const retryRead = async (reason: string): Promise<boolean> => {
		if (kind !== 'read' || readFailures >= MAX_READ_RETRIES) return false;
		readFailures += 1;
		const wait = READ_RETRY_BASE_MS * 2 ** (readFailures - 1);
		this.logger?.debug(
			`Prospecting: ${method} ${endpoint} failed (${reason}); retry ${readFailures} in ${wait} ms`,
		);
		await pause(wait, signal);
		return true;
	};

	for (;;) {
		attempts += 1;
		// A refusal (an earlier call's, or this call's own in the middle of a window) holds the budget longer than
		// this call may still wait: fail now, send nothing. After its own wait a call gets a second's grace for
		// timer jitter, so a Retry-After that just fits the maximum is still sat out.
		const heldMs = budget.refusalWaitMs();
		const graceMs = refusals > 0 ? OWN_REFUSAL_GRACE_MS : 0;
		if (heldMs > 0 && heldMs > maxWaitMs - rateLimitWaitedMs + graceMs) {
			throw rateLimitError({ askedWaitMs: heldMs });
		}
		const reservation = await budget.acquire(
			(ms) =>
				this.logger?.debug(
					`Prospecting: ${kind} budget spent; waiting ${Math.round(ms)} ms for the rate-limit window to reset`,
				),
			signal,
		);
		// After a refusal, waiting for the window is part of waiting out the rate limit.
		if (refusals > 0) rateLimitWaitedMs += reservation.waitedMs;

		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'prospectingApi',
				request,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			budget.cancel();
			const code = networkCode(error);
			if (code === 'ERR_CANCELED') {
				throw errorFromNetwork(node, { ...where, code, attempts }, secret, kind === 'write');
			}
			const retryable = isResponseLostCode(code) || isNotSentCode(code) || code === undefined;
			if (retryable && (await retryRead(redactText(code ?? 'network error', secret)))) continue;
			throw errorFromNetwork(node, { ...where, code, attempts }, secret, kind === 'write');
		}

		const status = response.statusCode;
		const headers = response.headers as Record<string, unknown>;
		budget.release(headers, status, reservation);

		if (status === 429) {
			refusals += 1;
			if (rateLimitWaitedMs >= maxWaitMs) throw rateLimitError({ status, body: response.body });

			const now = Date.now();
			const resetAt = parseResetHeader(readHeader(headers, 'x-ratelimit-reset'), now);
			const hint =
				parseRetryAfter(readHeader(headers, 'retry-after'), now) ??
				(resetAt !== undefined ? Math.max(0, resetAt - now) : undefined) ??
				1000;
			// Retrying before the service's own wait is over only earns another 429: when that wait does not
			// fit in what is left of the maximum, the item fails now instead of sleeping for nothing.
			if (hint > maxWaitMs - rateLimitWaitedMs) {
				throw rateLimitError({ status, body: response.body, askedWaitMs: hint });
			}

			// The spec asks for doubling on repeated refusals; the service's hint is a floor.
			let wait = refusals === 1 ? hint : Math.max(hint, lastRateLimitWaitMs * 2);
			wait = Math.max(wait, 100);
			wait = Math.min(wait, maxWaitMs - rateLimitWaitedMs);
			this.logger?.debug(
				`Prospecting: ${method} ${endpoint} refused with 429 (${refusals}); waiting ${Math.round(wait)} ms`,
			);
			await pause(wait, signal);
			rateLimitWaitedMs += wait;
			lastRateLimitWaitMs = wait;
			continue;
		}

		if (status >= 500 && (await retryRead(`status ${status}`))) continue;

		if (status < 200 || status >= 300) {
			throw errorFromStatus(
				node,
				{ ...where, status, body: response.body, attempts, recordLabel: options.recordLabel },
				secret,
			);
		}

		const body = response.body;
		if (kind === 'read' && !isJsonBody(body)) {
			if (await retryRead('answer was not JSON')) continue;
			throw errorFromNetwork(
				node,
				{ ...where, code: 'NOT_JSON', attempts, body: redactText(String(body ?? ''), secret) },
				secret,
			);
		}
		return redactValue(body, secret);
	}
}
