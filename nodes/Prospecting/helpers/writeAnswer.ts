/**
 * What a write's 2xx answer must be. The service answers a write with the record it wrote or nothing; anything else
 * (a proxy's maintenance page, a login page, a JSON array, another record than the one written) did not come from
 * the write, and says nothing about whether the service applied it.
 */

/**
 * `notJson`: neither empty nor a JSON object. `noRecord`: a create's answer that is not a JSON object with an id.
 * `anotherRecord`: a record that is not the one written (another lead, another webhook).
 */
export type WriteAnswerProblem = 'notJson' | 'noRecord' | 'anotherRecord';

/** What a write expects of its 2xx answer. */
export interface WriteAnswerExpectation {
	/** `required`: a create, whose answer is the created record with its id. */
	record: 'required' | 'optional';
	/** Whether a record answered is the one written; false for a record of something else. */
	isWritten: (record: Record<string, unknown>) => boolean;
}

function isJsonObject(body: unknown): body is Record<string, unknown> {
	return body !== null && typeof body === 'object' && !Array.isArray(body);
}

function isEmpty(body: unknown): boolean {
	return body === undefined || body === null || (typeof body === 'string' && body.trim() === '');
}

/** The record an answer holds: the object itself, or the object under `data` as some services wrap it. */
export function answeredRecord(body: Record<string, unknown>): Record<string, unknown> {
	return isJsonObject(body.data) ? body.data : body;
}

function hasId(record: Record<string, unknown>): boolean {
	const { id } = record;
	return (typeof id === 'string' && id.trim() !== '') || (typeof id === 'number' && Number.isFinite(id));
}

/** Why a write's 2xx answer cannot be taken as its result, or undefined when it can. */
export function writeAnswerProblem(body: unknown, expect?: WriteAnswerExpectation): WriteAnswerProblem | undefined {
	if (!isJsonObject(body)) {
		if (!isEmpty(body)) return 'notJson';
		return expect?.record === 'required' ? 'noRecord' : undefined;
	}
	const record = answeredRecord(body);
	if (expect?.record === 'required' && !hasId(record)) return 'noRecord';
	return expect && !expect.isWritten(record) ? 'anotherRecord' : undefined;
}
