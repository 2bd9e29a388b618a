/**
 * n8n 2.41's n8n-workflow has no sleepWithAbort (the tests' 2.11 has): there a wait cannot be cut short, and the budget's
 * waiting calls must still go when woken, and leave when their execution is cancelled.
 */
import { onControlledClock } from '../../dev/harness/clock';
import { Deadline } from '../../nodes/Prospecting/transport/deadline';
import { leaveIfCancelled, pause } from '../../nodes/Prospecting/transport/pause';
import { RateBudget } from '../../nodes/Prospecting/transport/rateBudget';
import type { RateSettings } from '../../nodes/Prospecting/transport/rateRules';
import { expectCancelledCallLeaves } from './rate-queue';

jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleepWithAbort: undefined }));

const one: RateSettings = { limit: 1, windowMs: 0, processes: 1, resetUnit: 'auto' };
const workflow = () => new Deadline(300_000);

it('on an n8n without an abortable sleep, a call waiting for an answer goes when it comes, and a cancelled one leaves at once', async () => {
	await expectCancelledCallLeaves(new RateBudget(), one, workflow, 'The execution was cancelled');
});

it('on an n8n without an abortable sleep, a thousand calls waiting out a hold all go, one at a time as each is answered', async () => {
	const budget = new RateBudget();
	budget.settle(budget.start(budget.enter(), Date.now()), { status: 429, retryAfterMs: 2000 }, one);
	const heldUntil = budget.figures().hold.until;
	const { result } = await onControlledClock(
		async () =>
			await Promise.all(
				Array.from({ length: 1000 }, async () => {
					const reservation = await budget.acquire(one, workflow());
					await Promise.resolve();
					budget.settle(reservation, { status: 200 }, one);
					return reservation.at;
				}),
			),
	);
	expect(result).toHaveLength(1000);
	// None before the hold's end, read from the budget: the clock starts a moment after the 429 was settled.
	expect(Math.min(...result)).toBeGreaterThanOrEqual(heldUntil);
});

it('on an n8n without an abortable sleep, a pause runs its time and a cancel is still told', async () => {
	const abort = new AbortController();
	abort.abort();
	await expect(leaveIfCancelled(abort.signal)).rejects.toThrow('The execution was cancelled');
	await expect(leaveIfCancelled(new AbortController().signal)).resolves.toBeUndefined();
	const { elapsedMs } = await onControlledClock(async () => await pause(1000, abort.signal));
	expect(elapsedMs).toBeGreaterThanOrEqual(1000);
});
