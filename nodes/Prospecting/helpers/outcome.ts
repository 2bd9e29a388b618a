import { markError, markOf } from './errorMarks';
import { isUnreachableCode } from './networkCode';

/**
 * What a failed write did to the service's data, as far as the node can prove it. Carried in an error's context,
 * so the router can put it on an error item (Continue On Fail) for a workflow to branch on.
 * - `notSent`: nothing reached the service (connection refused, unknown host, a check before sending failed).
 * - `refused`: the service, or something in front of it, answered that it did not apply it (4xx, 3xx, 429).
 * - `unknown`: it may have been applied, or may still be (every 5xx, a timeout, a reset after sending, a 2xx whose
 *   body is not what the write returns).
 */
export type WriteOutcome = 'notSent' | 'refused' | 'unknown';

/** The key of the error's context, and of an error item, that holds it: a write's outcome, not Lead Create's `leadOutcome`. */
const OUTCOME_KEY = 'writeOutcome';

/** The outcome an error carries, when it carries one. */
export function outcomeOf(error: unknown): WriteOutcome | undefined {
	const value = markOf(error, OUTCOME_KEY);
	return value === 'notSent' || value === 'refused' || value === 'unknown' ? value : undefined;
}

/** Marks an error with the outcome of its write and returns it. */
export const withOutcome = <E>(error: E, outcome: WriteOutcome): E => markError(error, OUTCOME_KEY, outcome);

/** Whether the write may have been applied: its answer was lost, or said nothing sure (a 5xx, a page from a proxy). */
export const isOutcomeUnknown = (error: unknown): boolean => outcomeOf(error) === 'unknown';

/**
 * A status other than 2xx: a redirect (never followed) and a 4xx leave the write unapplied; a 5xx may come after the
 * service applied it (a gateway giving up, a crash after the commit), and so may anything unexpected.
 */
export const answeredOutcome = (status: number): WriteOutcome => (status >= 300 && status < 500 ? 'refused' : 'unknown');

/** No answer: only a refused connection or an unknown host proves the write never reached the service. */
export const unansweredOutcome = (code: string | undefined): WriteOutcome => (isUnreachableCode(code) ? 'notSent' : 'unknown');

/** Over the rate limit: refused with 429 is refused; held back by the pace or another call's refusal, it never left. */
export const rateLimitedOutcome = (refusals: number): WriteOutcome => (refusals > 0 ? 'refused' : 'notSent');

/** The last line of an error whose write's outcome is unknown, before the call is named. */
export const NOT_SENT_AGAIN = 'The service may or may not have applied this change, so it was not sent again.';
