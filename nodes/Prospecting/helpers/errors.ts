import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { inCredential } from './credentialFault';
import { markError, markOf } from './errorMarks';
import { outcomeOf, withOutcome, type WriteOutcome } from './outcome';
import { describeAnswer, quotableDetails, quotableMessage } from './quotable';
import type { WriteAnswerProblem } from './writeAnswer';
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
	/** The answer's Content-Type: only JSON or one short line of text/plain is ever quoted. */
	contentType?: unknown;
	/** The Location of a 3xx answer (redirects are never followed). */
	location?: unknown;
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
	return RESPONSE_LOST_CODES.has(code as string);
}

export function isNotSentCode(code: string | undefined): boolean {
	return NOT_SENT_CODES.has(code as string);
}

/** Gateway answers that say nothing about the service behind: it may have applied a write before the gateway gave up. */
const GATEWAY_LOST_STATUSES = new Set([502, 504]);

/** Longest Location named in an error. */
const MAX_LOCATION_CHARS = 200;

/** The Location of a redirect (a header's first value: one line, trimmed by Node) as an error may name it: capped, without the key. */
function locationWords(location: unknown, secret?: string): string {
	const line = typeof location === 'string' ? redactText(location, secret) : '';
	if (line === '') return 'no Location given';
	return line.length > MAX_LOCATION_CHARS ? `${line.slice(0, MAX_LOCATION_CHARS)}…` : line;
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

/**
 * What a write's failed answer says it did. A redirect (never followed) and a 4xx leave it unapplied; a 5xx may come
 * after the service applied it (a gateway giving up, a crash after the commit), and so may anything unexpected.
 */
function statusOutcome(status: number): WriteOutcome {
	return status >= 300 && status < 500 ? 'refused' : 'unknown';
}

/** A line naming an answer that is not quoted (an HTML page, a long text), or nothing when it was quoted or empty. */
function unquotedAnswer(body: unknown, contentType: unknown, quoted: string | undefined): string {
	if (quoted !== undefined || body === undefined || body === null || body === '') return '';
	if (typeof body === 'object' && !Array.isArray(body)) return '';
	return `The answer was ${describeAnswer(body, contentType)} (not shown).`;
}

const NOT_SENT_AGAIN = 'The service may or may not have applied this change, so it was not sent again.';

/** The error for an HTTP status the service answered with. */
export function errorFromStatus(node: INode, failure: CallFailure, secret: string | undefined, isWrite: boolean): NodeApiError {
	const status = failure.status ?? 0;
	const body = redactValue(failure.body, secret);
	const fromService = quotableMessage(body, failure.contentType);
	const unquoted = unquotedAnswer(body, failure.contentType, fromService);
	const where = itemSuffix(failure);
	let message: string;
	let description: string;

	if (status >= 300 && status < 400) {
		// Following would send the key to whatever the Location names, and turn a POST into a GET of another page.
		// The Location comes last: a redacted key parameter takes everything up to the next space with it.
		message = `${failure.method} ${failure.endpoint} was redirected (${status}), and redirects are not followed: Location ${locationWords(failure.location, secret)}`;
		description = [
			'The base URL in the Prospecting API credential answers with a redirect, so nothing was sent to the new address.',
			'If the service has moved, put its new address in the Base URL of the credential.',
			where,
		].join('\n');
	} else if (isWrite && (status >= 500 || status < 200)) {
		// A 5xx may come after the service applied the write: a gateway that gave up on it, a crash after the commit.
		message = GATEWAY_LOST_STATUSES.has(status)
			? `The answer to ${failure.method} ${failure.endpoint} was lost: a gateway answered ${status}`
			: `The service answered ${status} to ${failure.method} ${failure.endpoint}: it may or may not have applied this change, and it was not sent again`;
		description = [fromService, unquoted, `${NOT_SENT_AGAIN} ${where}`].filter(Boolean).join('\n');
	} else if (status === 400) {
		const reasons = fieldReasons(body);
		message = fromService ?? 'The service rejected the request as invalid (400)';
		description = [...reasons, unquoted, where].filter(Boolean).join('\n');
	} else if (status === 401) {
		message = 'The API key was refused (401): check the API key in the Prospecting API credential';
		description = [fromService, unquoted, where].filter(Boolean).join('\n');
	} else if (status === 404) {
		const what = failure.recordLabel ?? `The record at ${failure.endpoint}`;
		message = `${what} was not found (404)`;
		description = [fromService, unquoted, where].filter(Boolean).join('\n');
	} else if (status >= 500) {
		const attempts =
			failure.attempts && failure.attempts > 1 ? ` after ${failure.attempts} attempts` : '';
		message = `The service failed to process the request (${status})${attempts}`;
		description = [fromService, unquoted, where].filter(Boolean).join('\n');
	} else {
		message = fromService ?? `The service rejected the request (${status})`;
		description = [...fieldReasons(body), unquoted, where].filter(Boolean).join('\n');
	}

	const details: JsonObject = { httpCode: String(status) };
	const kept = quotableDetails(body);
	if (kept) details.body = kept;
	const error = buildApiError(node, {
		message,
		description,
		httpCode: String(status),
		itemIndex: failure.itemIndex,
		details,
		secret,
	});
	// A redirect and a refused key are mended in the credential (its Base URL, its key).
	if (status === 401 || (status >= 300 && status < 400)) inCredential(error);
	const serviceJson = body !== null && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string';
	if (status === 404 && serviceJson) markError(error, NOT_FOUND_KEY, true);
	return isWrite ? withOutcome(error, statusOutcome(status)) : error;
}

const NETWORK_CODE_KEY = 'networkCode';
const NOT_FOUND_KEY = 'notFound';

/** A 404 is the service's "record not found" only with its own JSON message: a proxy's 404 page says nothing of the record. */
export const isNotFound = (error: unknown): boolean => markOf(error, NOT_FOUND_KEY) === true;

/** Whether a call failed without reaching the service at all (refused connection, unknown host). */
export const isUnreachableError = (error: unknown): boolean =>
	isNotSentCode(markOf(error, NETWORK_CODE_KEY) as string | undefined);

/** The error for a call that got no usable answer. */
export function errorFromNetwork(
	node: INode,
	failure: CallFailure,
	secret: string | undefined,
	isWrite: boolean,
): NodeApiError {
	const words = describeCode(failure.code);
	const where = itemSuffix(failure);
	// Only a refused connection or an unknown host proves a write never reached the service; any other failure
	// (a timeout, a reset, a code this list does not know) leaves its outcome unknown.
	const notSent = isNotSentCode(failure.code);
	// A write's answer is never NOT_JSON: a write's 2xx is checked as its own (errorFromWriteAnswer).
	const lost = isWrite && !notSent;
	let message: string;
	let description: string;
	if (lost) {
		message = `The answer to ${failure.method} ${failure.endpoint} was lost: ${words}`;
		description = `${NOT_SENT_AGAIN} ${where}`;
	} else if (failure.code === 'NOT_JSON') {
		const attempts =
			failure.attempts && failure.attempts > 1 ? ` (${failure.attempts} attempts)` : '';
		message = `The service answered with something that is not JSON${attempts}`;
		// Whatever answered is not quoted: it may be a proxy's page, or not the service at all.
		description = `The answer was ${describeAnswer(failure.body, failure.contentType)}. Check the base URL in the credential. ${where}`;
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
		secret,
	});
	// Kept as a mark, not in the error's details: n8n would take a code there for the item's httpCode.
	markError(error, NETWORK_CODE_KEY, failure.code);
	if (!isWrite) return error;
	return withOutcome(error, notSent ? 'notSent' : 'unknown');
}

/**
 * The error for a write whose 2xx answer is not what the write returns: neither empty nor a JSON object, or, for a
 * create, no record with an id. Something other than the service may have answered (a proxy's maintenance page),
 * or the service may have applied it: the outcome is unknown and it is not sent again.
 */
export function errorFromWriteAnswer(
	node: INode,
	failure: CallFailure & { problem: WriteAnswerProblem },
	secret?: string,
): NodeApiError {
	const where = itemSuffix(failure);
	const call = `${failure.method} ${failure.endpoint}`;
	const answer =
		failure.problem === 'anotherRecord'
			? 'a record that is not the one sent'
			: failure.problem === 'noRecord' && failure.body !== null && typeof failure.body === 'object' && !Array.isArray(failure.body)
				? 'a JSON object without an id'
				: describeAnswer(failure.body, failure.contentType);
	const message =
		failure.problem === 'noRecord'
			? `The service answered ${failure.status} to ${call} without the created record: it may have been created, and it was not sent again`
			: `The service answered ${failure.status} to ${call} with ${answer}: it may or may not have applied this change, and it was not sent again`;
	const description = [
		failure.problem === 'noRecord' ? `The answer was ${answer}, not the created record.` : '',
		'Something in front of the service (a proxy, a maintenance page) may have answered in its place, or the service may have applied the change.',
		`Check whether it was applied before running this item again, and check the base URL in the credential. ${where}`,
	]
		.filter(Boolean)
		.join('\n');
	const error = buildApiError(node, {
		message,
		description,
		httpCode: String(failure.status),
		itemIndex: failure.itemIndex,
		secret,
	});
	return withOutcome(error, 'unknown');
}

/** True when the write's outcome is unknown: its answer was lost, or said nothing sure (it may have been applied). */
export function isResponseLostError(error: unknown): boolean {
	return outcomeOf(error) === 'unknown';
}

/** The error for a 429 that outlasted the allowed total wait. */
export function errorFromRateLimit(
	node: INode,
	failure: CallFailure & {
		waitedMs: number;
		maxWaitMs: number;
		refusals: number;
		/** The wait the call would need, when known: the hold or the pace alone would pass the maximum. */
		askedWaitMs?: number;
		/** What holds the key: a 429's Retry-After or reset, or a doubled wait; none when the pace alone holds the call. */
		heldBy?: 'Retry-After' | 'X-RateLimit-Reset' | 'doubling';
	},
	secret: string | undefined,
	isWrite: boolean,
): NodeApiError {
	const seconds = (ms: number) => Math.round(ms / 100) / 10;
	const waited = seconds(failure.waitedMs);
	const max = seconds(failure.maxWaitMs);
	const fromService = quotableMessage(redactValue(failure.body, secret), failure.contentType);
	const message = `Rate limit still reached after waiting ${waited} s in total (maximum ${max} s)`;
	const times = failure.refusals === 1 ? '1 time' : `${failure.refusals} times`;
	const left = `${seconds(Math.max(0, failure.maxWaitMs - failure.waitedMs))} s left of the maximum`;
	const wait = seconds(failure.askedWaitMs ?? 0);
	const more = failure.refusals === 0 ? ' more' : '';
	const asked =
		failure.heldBy === 'doubling'
			? `gave no wait (no Retry-After or X-RateLimit-Reset), so the key waits ${wait} s${more} (a window, doubled with each such refusal)`
			: `asked to wait ${wait} s${more} (${failure.heldBy})`;
	const when = failure.askedWaitMs ? `in ${wait} s at the earliest` : 'only after the calls ahead of it';
	const reason =
		failure.heldBy === undefined
			? `The rate limit of this key lets this call go ${when}, more than the ${left}, so it was not sent.`
			: failure.refusals === 0
				? `An earlier call with this key was refused with 429 (too many requests) and the service ${asked}, more than the ${left}, so this call was not sent.`
				: `The service refused the request ${times} with 429 (too many requests) and ${asked}, more than the ${left}, so it was not sent again.`;
	const description = [
		`${reason} Raise "Max Rate Limit Wait" in the node options, or spread the calls over more time.`,
		fromService ? `Service message: ${fromService}` : '',
		itemSuffix(failure),
	]
		.filter(Boolean)
		.join('\n');
	const error = buildApiError(node, {
		message,
		description,
		httpCode: '429',
		itemIndex: failure.itemIndex,
		secret,
	});
	if (!isWrite) return error;
	// Refused with 429 is refused; held back by the pace or another call's refusal, it never left.
	return withOutcome(error, failure.refusals > 0 ? 'refused' : 'notSent');
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
