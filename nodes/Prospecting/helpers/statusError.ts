/**
 * The error for an answer with a status other than 2xx and 429: the service's own message quoted as it wrote it,
 * what to mend, and the write's outcome. A 404 with the service's JSON is its "record not found" (`isNotFound`).
 */
import type { INode, NodeApiError } from 'n8n-workflow';

import { inCredential } from './credentialFault';
import { markError, markOf } from './errorMarks';
import { afterAttempts, buildApiError, callAndItem, type CallFailure } from './nodeError';
import { answeredOutcome, NOT_SENT_AGAIN, withOutcome } from './outcome';
import { describeAnswer, quotableDetails, quotableMessage } from './quotable';
import { redactText, redactValue } from './secrets';

/** Gateway answers that say nothing about the service behind: it may have applied a write before the gateway gave up. */
const GATEWAY_LOST_STATUSES = new Set([502, 504]);

/** Longest Location named in an error. */
const MAX_LOCATION_CHARS = 200;

const NOT_FOUND_KEY = 'notFound';

/** The service's "record not found": a 404 with its own JSON message, as a proxy's 404 page says nothing of the record. */
export const isNotFound = (error: unknown): boolean => markOf(error, NOT_FOUND_KEY) === true;

/** The Location of a redirect (a header's first value: one line, trimmed by Node) as an error may name it: capped, without the key. */
function locationWords(location: unknown, secret?: string): string {
	const line = typeof location === 'string' ? redactText(location, secret) : '';
	if (line === '') return 'no Location given';
	return line.length > MAX_LOCATION_CHARS ? `${line.slice(0, MAX_LOCATION_CHARS)}…` : line;
}

/** `field: reason` lines from a 400 body `{ message, errors: [{ field, message }] }`. */
function fieldReasons(body: unknown): string[] {
	const errors = (body as { errors?: unknown } | null | undefined)?.errors;
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

/** A line naming an answer that is not quoted (an HTML page, a long text), or nothing when it was quoted or empty. */
function unquotedAnswer(body: unknown, contentType: unknown, quoted: string | undefined): string {
	if (quoted !== undefined || body === undefined || body === null || body === '') return '';
	if (typeof body === 'object' && !Array.isArray(body)) return '';
	return `The answer was ${describeAnswer(body, contentType)} (not shown).`;
}

/** The error for an HTTP status the service answered with, other than 2xx and 429. */
export function errorFromStatus(node: INode, failure: CallFailure, secret: string | undefined, isWrite: boolean): NodeApiError {
	const status = failure.status ?? 0;
	const body = redactValue(failure.body, secret);
	const fromService = quotableMessage(body, failure.contentType);
	const unquoted = unquotedAnswer(body, failure.contentType, fromService);
	const [call, where] = [`${failure.method} ${failure.endpoint}`, callAndItem(failure)];
	const redirected = status >= 300 && status < 400;
	let message: string;
	let lines = [fromService, unquoted, where];

	if (redirected) {
		// Following would send the key to whatever the Location names, and turn a POST into a GET of another page.
		// The Location comes last: a redacted key parameter takes everything up to the next space with it.
		message = `${call} was redirected (${status}), and redirects are not followed: Location ${locationWords(failure.location, secret)}`;
		lines = [
			'The base URL in the Prospecting API credential answers with a redirect, so nothing was sent to the new address.',
			'If the service has moved, put its new address in the Base URL of the credential.',
			where,
		];
	} else if (isWrite && answeredOutcome(status) === 'unknown') {
		message = GATEWAY_LOST_STATUSES.has(status)
			? `The answer to ${call} was lost: a gateway answered ${status}`
			: `The service answered ${status} to ${call}: it may or may not have applied this change, and it was not sent again`;
		lines = [fromService, unquoted, `${NOT_SENT_AGAIN} ${where}`];
	} else if (status === 401) {
		message = 'The API key was refused (401): check the API key in the Prospecting API credential';
	} else if (status === 404) {
		message = `${failure.recordLabel ?? `The record at ${failure.endpoint}`} was not found (404)`;
	} else if (status >= 500) {
		message = `The service failed to process the request (${status})${afterAttempts(failure.attempts)}`;
	} else {
		const rejected = status === 400 ? 'The service rejected the request as invalid (400)' : `The service rejected the request (${status})`;
		message = fromService ?? rejected;
		lines = [...fieldReasons(body), unquoted, where];
	}

	const kept = quotableDetails(body);
	const error = buildApiError(node, {
		message,
		description: lines.filter(Boolean).join('\n'),
		httpCode: String(status),
		itemIndex: failure.itemIndex,
		details: kept ? { body: kept } : undefined,
		secret,
	});
	// A redirect and a refused key are mended in the credential (its Base URL, its key).
	if (status === 401 || redirected) inCredential(error);
	if (status === 404 && typeof (body as { message?: unknown } | null)?.message === 'string') markError(error, NOT_FOUND_KEY, true);
	return isWrite ? withOutcome(error, answeredOutcome(status)) : error;
}
