import type { JsonObject } from 'n8n-workflow';

/**
 * What of an answer an error may repeat. Whatever answered the base URL may not be the service (a proxy, a moved
 * host, a metadata endpoint reached some other way), and an error is shown to anyone who can read the execution:
 * only the service's own words are quoted, the `message` (and field `errors`) of a JSON answer, or one short line
 * of plain text. An HTML page or any other body is never repeated, only its type is named.
 */

/** Longest service message quoted; the service's Portuguese messages are far shorter. */
const MAX_MESSAGE_CHARS = 500;
/** Longest plain-text answer quoted, on one line. */
const MAX_PLAIN_TEXT_CHARS = 200;
/** At most this many field errors are kept from a 400's `errors`. */
const MAX_FIELD_ERRORS = 50;

function capped(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The media type of a Content-Type header, lower case: `text/html; charset=utf-8` → `text/html`. */
export function mediaType(contentType: unknown): string {
	return typeof contentType === 'string' ? contentType.split(';')[0].trim().toLowerCase() : '';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The service's message in an answer: the `message` of a JSON object (capped), or a plain-text answer of one
 * short line. Undefined for anything else: an HTML page, a long or many-line text, a JSON array or number.
 */
export function quotableMessage(body: unknown, contentType?: unknown): string | undefined {
	if (isPlainObject(body)) {
		const message = body.message;
		if (typeof message === 'string' && message.trim() !== '') return capped(message, MAX_MESSAGE_CHARS);
		if (Array.isArray(message) && message.every((part) => typeof part === 'string')) {
			return capped(message.join('; '), MAX_MESSAGE_CHARS);
		}
		return undefined;
	}
	if (typeof body !== 'string' || mediaType(contentType) !== 'text/plain') return undefined;
	const text = body.trim();
	if (text === '' || text.length > MAX_PLAIN_TEXT_CHARS || /[\r\n]/.test(text)) return undefined;
	return text;
}

/**
 * The part of a JSON answer an error may carry in its details: `message` and the field `errors` of the spec's
 * error shape. Nothing else of the body travels, whatever it holds.
 */
export function quotableDetails(body: unknown): JsonObject | undefined {
	if (!isPlainObject(body)) return undefined;
	const details: JsonObject = {};
	const message = quotableMessage(body);
	if (message !== undefined) details.message = message;
	if (Array.isArray(body.errors)) {
		details.errors = body.errors.slice(0, MAX_FIELD_ERRORS).map((entry) => {
			if (!isPlainObject(entry)) return capped(String(entry), MAX_MESSAGE_CHARS);
			const kept: JsonObject = {};
			if (typeof entry.field === 'string') kept.field = capped(entry.field, MAX_MESSAGE_CHARS);
			if (typeof entry.message === 'string') kept.message = capped(entry.message, MAX_MESSAGE_CHARS);
			return kept;
		});
	}
	return Object.keys(details).length > 0 ? details : undefined;
}

/** Words for an answer that is not quoted: `an HTML page`, `a JSON list`, `an answer of type image/png`, `an empty answer`. */
export function describeAnswer(body: unknown, contentType?: unknown): string {
	const type = mediaType(contentType);
	if (body === undefined || body === null || body === '') return 'an empty answer';
	if (Array.isArray(body)) return 'a JSON list';
	if (type === 'text/html' || (typeof body === 'string' && /^\s*</.test(body))) return 'an HTML page';
	if (type !== '') return `an answer of type ${capped(type, 60)}`;
	return 'an answer that is not JSON';
}
