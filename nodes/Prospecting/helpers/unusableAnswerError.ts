/**
 * The errors for a 2xx answer the call cannot use. Whatever answered is not quoted: it may be a proxy's page, or not
 * the service at all.
 */
import type { INode, NodeApiError } from 'n8n-workflow';

import { buildApiError, callAndItem, type CallFailure } from './nodeError';
import { withOutcome } from './outcome';
import { describeAnswer } from './quotable';
import type { WriteAnswerProblem } from './writeAnswer';

/** The error for a read answered with something that is not JSON. */
export function errorFromNotJson(node: INode, failure: CallFailure, secret?: string): NodeApiError {
	const attempts = failure.attempts && failure.attempts > 1 ? ` (${failure.attempts} attempts)` : '';
	return buildApiError(node, {
		message: `The service answered with something that is not JSON${attempts}`,
		description: `The answer was ${describeAnswer(failure.body, failure.contentType)}. Check the base URL in the credential. ${callAndItem(failure)}`,
		itemIndex: failure.itemIndex,
		secret,
	});
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
	const { problem, body } = failure;
	const call = `${failure.method} ${failure.endpoint}`;
	const answer =
		problem === 'anotherRecord'
			? 'a record that is not the one sent'
			: problem === 'noRecord' && body !== null && typeof body === 'object' && !Array.isArray(body)
				? 'a JSON object without an id'
				: describeAnswer(body, failure.contentType);
	const message =
		problem === 'noRecord'
			? `The service answered ${failure.status} to ${call} without the created record: it may have been created, and it was not sent again`
			: `The service answered ${failure.status} to ${call} with ${answer}: it may or may not have applied this change, and it was not sent again`;
	const description = [
		problem === 'noRecord' ? `The answer was ${answer}, not the created record.` : '',
		'Something in front of the service (a proxy, a maintenance page) may have answered in its place, or the service may have applied the change.',
		`Check whether it was applied before running this item again, and check the base URL in the credential. ${callAndItem(failure)}`,
	];
	const error = buildApiError(node, {
		message,
		description: description.filter(Boolean).join('\n'),
		httpCode: String(failure.status),
		itemIndex: failure.itemIndex,
		secret,
	});
	return withOutcome(error, 'unknown');
}
