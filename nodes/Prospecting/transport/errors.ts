import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { redactText, redactValue } from './secrets';

/** What went wrong with one call, already free of the API key. */
export interface CallFailure {
	method: string;
	/** Path below /api/v1, without query string. */
	endpoint: string;
	itemIndex?: number;
	/** Set when the service answered. */
	status?: number;
	body?: unknown;
	/** Network error code (ECONNRESET, ETIMEDOUT, ...) when the service did not answer. */
	code?: string;
	/** e.g. 'Routine "rt_1"', used to name the missing record on 404. */
	recordLabel?: string;
	/** How many attempts were made. */
	attempts?: number;
}

/** Network failures where the request may have reached the service but its answer did not come back. */
const RESPONSE_LOST_CODES = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ESOCKETTIMEDOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
	'SOCKET_HANG_UP',
]);

/** Network failures where the request never reached the service. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

export function isResponseLostCode(code: string | undefined): boolean {
	return code !== undefined && RESPONSE_LOST_CODES.has(code);
}

export function isNotSentCode(code: string | undefined): boolean {
	return code !== undefined && NOT_SENT_CODES.has(code);
}

/** Gateway answers that say nothing about the service behind: it may have applied a write before the gateway gave up. */
const GATEWAY_LOST_STATUSES = new Set([502, 504]);

function isWriteMethod(method: string): boolean {
	return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}

const CODE_WORDS: Record<string, string> = {
	ECONNRESET: 'the connection was reset',
	ETIMEDOUT: 'the request timed out',
	ECONNABORTED: 'the request timed out',
	ESOCKETTIMEDOUT: 'the request timed out',
	EPIPE: 'the connection was closed while sending',
	SOCKET_HANG_UP: 'the connection was closed before an answer came',
	ECONNREFUSED: 'the service refused the connection',
	ENOTFOUND: 'the host name of the base URL could not be resolved',
	EAI_AGAIN: 'the host name of the base URL could not be resolved',
	EHOSTUNREACH: 'the host of the base URL is unreachable',
	ENETUNREACH: 'the network is unreachable',
	ERR_CANCELED: 'the request was cancelled',
	NOT_JSON: 'the answer was not JSON',
};

/** Words for a network error code, without the raw code that n8n would otherwise rewrite. */
export function describeCode(code: string | undefined): string {
	if (!code) return 'the connection failed';
	return CODE_WORDS[code] ?? `the connection failed (${code.toLowerCase()})`;
}

function itemSuffix(failure: Pick<CallFailure, 'itemIndex' | 'method' | 'endpoint'>): string {
	const item = failure.itemIndex !== undefined ? `item ${failure.itemIndex}, ` : '';
	return `(${item}${failure.method} ${failure.endpoint})`;
}

function serviceMessage(body: unknown): string | undefined {
	if (body && typeof body === 'object' && !Array.isArray(body)) {
		const message = (body as { message?: unknown }).message;
		if (typeof message === 'string' && message.trim() !== '') return message;
		if (Array.isArray(message)) return message.map(String).join('; ');
	}
	if (typeof body === 'string' && body.trim() !== '') return body.trim().slice(0, 300);
	return undefined;
}

/** `field: reason` lines from a 400 body `{ message, errors: [{ field, message }] }`. */
export function fieldReasons(body: unknown): string[] {
	if (!body || typeof body !== 'object') return [];
	const errors = (body as { errors?: unknown }).errors;
	if (!Array.isArray(errors)) return [];
	return errors.map((entry) => {
		if (entry && typeof entry === 'object') {
			const { field, message } = entry as { field?: unknown; message?: unknown };
			const reason = typeof message === 'string' ? message : JSON.stringify(message ?? '');
			return field !== undefined && field !== '' ? `${String(field)}: ${reason}` : reason;
		}
		return String(entry);
	});
}

/**
 * Builds a NodeApiError from plain, already redacted values. The raw HTTP error is never
 * passed in: n8n would copy its request config (and so the key in the URL) into the error.
 */
export function buildApiError(
	node: INode,
	parts: {
		message: string;
		description?: string;
		httpCode?: string;
		itemIndex?: number;
		details?: JsonObject;
		secret?: string;
	},
): NodeApiError {
	const message = redactText(parts.message, parts.secret);
	const description = parts.description ? redactText(parts.description, parts.secret) : undefined;
	const errorResponse: JsonObject = {
		message,
		...(description ? { description } : {}),
		...(parts.httpCode ? { httpCode: parts.httpCode } : {}),
		...((redactValue(parts.details, parts.secret) as JsonObject | undefined) ?? {}),
	};
	const error = new NodeApiError(node, errorResponse, {
		message,
		description,
		httpCode: parts.httpCode,
		itemIndex: parts.itemIndex,
	});
	// NodeApiError rewrites messages that mention network codes or status classes; ours are already clear.
	error.message = message;
	error.description = description ?? null;
	if (parts.httpCode) error.httpCode = parts.httpCode;
	return error;
}

/** The error for an HTTP status the service answered with. */
export function errorFromStatus(node: INode, failure: CallFailure, secret?: string): NodeApiError {
	const status = failure.status ?? 0;
	const body = redactValue(failure.body, secret);
	const fromService = serviceMessage(body);
	const where = itemSuffix(failure);
	let message: string;
	let description: string;
	const lost = GATEWAY_LOST_STATUSES.has(status) && isWriteMethod(failure.method);

	if (lost) {
		// A gateway's 502/504 comes when the service behind it was too slow or went away mid-answer: it may have
		// applied the write, so this is a lost answer, not a failure.
		message = `The answer to ${failure.method} ${failure.endpoint} was lost: a gateway answered ${status}`;
		description = [
			fromService,
			`The service may or may not have applied this change, so it was not sent again. ${where}`,
		]
			.filter(Boolean)
			.join('\n');
	} else if (status === 400) {
		const reasons = fieldReasons(body);
		message = fromService ?? 'The service rejected the request as invalid (400)';
		description = [...reasons, where].join('\n');
	} else if (status === 401) {
		message = 'The API key was refused (401): check the API key in the Prospecting API credential';
		description = [fromService, where].filter(Boolean).join('\n');
	} else if (status === 404) {
		const what = failure.recordLabel ?? `The record at ${failure.endpoint}`;
		message = `${what} was not found (404)`;
		description = [fromService, where].filter(Boolean).join('\n');
	} else if (status >= 500) {
		const attempts =
			failure.attempts && failure.attempts > 1 ? ` after ${failure.attempts} attempts` : '';
		message = `The service failed to process the request (${status})${attempts}`;
		description = [fromService, where].filter(Boolean).join('\n');
	} else {
		message = fromService ?? `The service rejected the request (${status})`;
		const reasons = fieldReasons(body);
		description = [...reasons, fromService && fromService !== message ? fromService : '', where]
			.filter(Boolean)
			.join('\n');
	}

	const details: JsonObject = { httpCode: String(status) };
	if (body && typeof body === 'object') details.body = body as JsonObject;
	const error = buildApiError(node, {
		message,
		description,
		httpCode: String(status),
		itemIndex: failure.itemIndex,
		details,
		secret,
	});
	if (lost) error.context[RESPONSE_LOST] = true;
	return error;
}

/** Marks an error raised because a write's answer was lost: the write may have been applied. */
export const RESPONSE_LOST = 'responseLost';
/** Marks an error raised because a write never reached the service (refused connection, unknown host). */
export const NOT_SENT = 'notSent';

/** The error for a call that got no usable answer. */
export function errorFromNetwork(
	node: INode,
	failure: CallFailure,
	secret?: string,
	isWrite = false,
): NodeApiError {
	const words = describeCode(failure.code);
	const where = itemSuffix(failure);
	// Only a refused connection or an unknown host proves a write never reached the service; any other failure
	// (a timeout, a reset, a code this list does not know) leaves its outcome unknown.
	const notSent = isNotSentCode(failure.code);
	const lost = isWrite && !notSent && failure.code !== 'NOT_JSON';
	let message: string;
	let description: string;
	if (lost) {
		message = `The answer to ${failure.method} ${failure.endpoint} was lost: ${words}`;
		description = `The service may or may not have applied this change, so it was not sent again. ${where}`;
	} else if (failure.code === 'NOT_JSON') {
		const attempts =
			failure.attempts && failure.attempts > 1 ? ` (${failure.attempts} attempts)` : '';
		message = `The service answered with something that is not JSON${attempts}`;
		const snippet = typeof failure.body === 'string' ? failure.body.slice(0, 200) : '';
		description = [
			snippet ? `Start of the answer: ${snippet}` : '',
			`Check the base URL in the credential. ${where}`,
		]
			.filter(Boolean)
			.join('\n');
	} else {
		const attempts =
			failure.attempts && failure.attempts > 1 ? ` after ${failure.attempts} attempts` : '';
		message = `Could not reach the service${attempts}: ${words}`;
		description = `Check the base URL in the credential and that the service is up. ${where}`;
	}
	const error = buildApiError(node, {
		message,
		description,
		itemIndex: failure.itemIndex,
		details: { code: failure.code ?? 'UNKNOWN' },
		secret,
	});
	if (lost) error.context[RESPONSE_LOST] = true;
	if (isWrite && notSent) error.context[NOT_SENT] = true;
	return error;
}

/** True when the error proves a write never reached the service, so sending it again cannot apply it twice. */
export function isNotSentError(error: unknown): boolean {
	return Boolean(
		error &&
		typeof error === 'object' &&
		(error as { context?: Record<string, unknown> }).context?.[NOT_SENT] === true,
	);
}

/** True when the error says a write's answer was lost (the write may have been applied). */
export function isResponseLostError(error: unknown): boolean {
	return Boolean(
		error &&
		typeof error === 'object' &&
		(error as { context?: Record<string, unknown> }).context?.[RESPONSE_LOST] === true,
	);
}

/** The error for a 429 that outlasted the allowed total wait. */
export function errorFromRateLimit(
	node: INode,
	failure: CallFailure & {
		waitedMs: number;
		maxWaitMs: number;
		refusals: number;
		/** The wait the service asked for, when it alone would pass the maximum. */
		askedWaitMs?: number;
		/** No refusal: the key's pace (calls ahead of this one, a spent window) would hold it past the maximum. */
		paced?: boolean;
	},
	secret?: string,
): NodeApiError {
	const seconds = (ms: number) => Math.round(ms / 100) / 10;
	const waited = seconds(failure.waitedMs);
	const max = seconds(failure.maxWaitMs);
	const fromService = serviceMessage(redactValue(failure.body, secret));
	const message = `Rate limit still reached after waiting ${waited} s in total (maximum ${max} s)`;
	const times = failure.refusals === 1 ? '1 time' : `${failure.refusals} times`;
	const left = `${seconds(Math.max(0, failure.maxWaitMs - failure.waitedMs))} s left of the maximum`;
	const asked =
		failure.askedWaitMs !== undefined
			? ` and asked to wait ${seconds(failure.askedWaitMs)} s (Retry-After), more than the ${left}, so it was not sent again`
			: '';
	const when = failure.askedWaitMs ? `in ${seconds(failure.askedWaitMs)} s at the earliest` : 'only after the calls ahead of it';
	const heldBy = `An earlier call with this key was refused with 429 (too many requests) and the service asked to wait`;
	const reason = failure.paced
		? `The rate limit of this key lets this call go ${when}, more than the ${left}, so it was not sent.`
		: failure.refusals === 0
			? `${heldBy} ${seconds(failure.askedWaitMs ?? 0)} s more, more than the ${left}, so this call was not sent.`
			: `The service refused the request ${times} with 429 (too many requests)${asked}.`;
	const description = [
		`${reason} Raise "Max Rate Limit Wait" in the node options, or spread the calls over more time.`,
		fromService ? `Service message: ${fromService}` : '',
		itemSuffix(failure),
	]
		.filter(Boolean)
		.join('\n');
	return buildApiError(node, {
		message,
		description,
		httpCode: '429',
		itemIndex: failure.itemIndex,
		secret,
	});
}

/** Passes n8n errors on as they are and wraps anything else, so a catch block never rethrows a raw value. */
export function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const name = (error as { name?: unknown } | undefined)?.name;
	if (name === 'NodeApiError' || name === 'NodeOperationError') {
		return error as NodeApiError | NodeOperationError;
	}
	return new NodeOperationError(node, error instanceof Error ? error : String(error));
}

/** Adds a line to an error's description (what the node found out after the failure). */
export function withNote(
	node: INode,
	error: unknown,
	note: string,
): NodeApiError | NodeOperationError {
	const nodeError = asNodeError(node, error);
	nodeError.description = [nodeError.description, note].filter(Boolean).join('\n');
	return nodeError;
}
