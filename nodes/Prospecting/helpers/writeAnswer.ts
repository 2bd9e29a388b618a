/**
 * What a write's 2xx answer must be. The service answers a write with the record it wrote or nothing; anything else
 * (a proxy's maintenance page, a login page, a JSON array) did not come from the write, and says nothing about
 * whether the service applied it.
 */

/** `notJson`: neither empty nor a JSON object. `noRecord`: a create's answer that is not a JSON object with an id. */
export type WriteAnswerProblem = 'notJson' | 'noRecord';

/** What a write expects of its 2xx answer: `recordWithId` for a create, whose answer is the created record. */
export type WriteAnswerExpectation = 'recordWithId';

function isJsonObject(body: unknown): body is Record<string, unknown> {
	return body !== null && typeof body === 'object' && !Array.isArray(body);
}

function isEmpty(body: unknown): boolean {
	return body === undefined || body === null || (typeof body === 'string' && body.trim() === '');
}

/** The record a create answered: the object itself, or the object under `data` as some services wrap it. */
function hasId(body: Record<string, unknown>): boolean {
	const record = isJsonObject(body.data) ? body.data : body;
	const id = record.id;
	return (typeof id === 'string' && id.trim() !== '') || (typeof id === 'number' && Number.isFinite(id));
}

/** Why a write's 2xx answer cannot be taken as its result, or undefined when it can. */
export function writeAnswerProblem(body: unknown, expect?: WriteAnswerExpectation): WriteAnswerProblem | undefined {
	if (expect === 'recordWithId') {
		if (!isJsonObject(body)) return isEmpty(body) ? 'noRecord' : 'notJson';
		return hasId(body) ? undefined : 'noRecord';
	}
	return isEmpty(body) || isJsonObject(body) ? undefined : 'notJson';
}
