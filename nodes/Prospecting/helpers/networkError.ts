/** The error for a call that got no answer: what the network code says, and whether a write may have arrived. */
import type { INode, NodeApiError } from 'n8n-workflow';

import { markError, markOf } from './errorMarks';
import { describeCode, isUnreachableCode } from './networkCode';
import { afterAttempts, buildApiError, callAndItem, type CallFailure } from './nodeError';
import { NOT_SENT_AGAIN, unansweredOutcome, withOutcome } from './outcome';

/** Kept as a mark, not in the error's details: n8n would take a code there for the item's httpCode. */
const NETWORK_CODE_KEY = 'networkCode';

/** Whether a call failed without reaching the service at all (refused connection, unknown host). */
export const isServiceUnreachable = (error: unknown): boolean =>
	isUnreachableCode(markOf(error, NETWORK_CODE_KEY) as string | undefined);

/**
 * The error for a call that got no answer. A write's answer is lost unless the code proves it never reached the
 * service (a timeout, a reset, a code this list does not know all leave its outcome unknown).
 */
export function errorFromNetwork(node: INode, failure: CallFailure, secret: string | undefined, isWrite: boolean): NodeApiError {
	const [words, where, outcome] = [describeCode(failure.code), callAndItem(failure), unansweredOutcome(failure.code)];
	const lost = isWrite && outcome === 'unknown';
	const error = buildApiError(node, {
		message: lost
			? `The answer to ${failure.method} ${failure.endpoint} was lost: ${words}`
			: `Could not reach the service${afterAttempts(failure.attempts)}: ${words}`,
		description: lost ? `${NOT_SENT_AGAIN} ${where}` : `Check the base URL in the credential and that the service is up. ${where}`,
		itemIndex: failure.itemIndex,
		secret,
	});
	markError(error, NETWORK_CODE_KEY, failure.code);
	return isWrite ? withOutcome(error, outcome) : error;
}
