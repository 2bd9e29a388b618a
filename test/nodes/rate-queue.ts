/** A scenario of the rate budget's queue that the rule tests run on n8n's sleep, and again on an n8n without an abortable one. */
import type { Deadline } from '../../nodes/Prospecting/transport/deadline';
import type { RateBudget } from '../../nodes/Prospecting/transport/rateBudget';
import type { RateSettings } from '../../nodes/Prospecting/transport/rateRules';

/**
 * One call at a time (`one`: a limit of 1): a call whose execution is cancelled while it waits its turn leaves at
 * once with `cancelled` (an error's message, or any), and the call behind it goes once the call ahead is answered.
 */
export async function expectCancelledCallLeaves(budget: RateBudget, one: RateSettings, deadline: () => Deadline, cancelled?: string): Promise<void> {
	const ahead = await budget.acquire(one, deadline());
	const abort = new AbortController();
	const leaving = budget.acquire(one, deadline(), abort.signal);
	const behind = budget.acquire(one, deadline());
	abort.abort();
	await expect(leaving).rejects.toThrow(cancelled);
	budget.settle(ahead, { status: 200 }, one);
	await expect(behind).resolves.toHaveProperty('at');
}
