import { markError, markOf } from './errorMarks';

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
