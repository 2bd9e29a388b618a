import type { RateAnswer } from './rateHeaders';

/** Shortest wait after a refusal, so a refused call never spins. */
const MIN_REFUSAL_WAIT_MS = 100;

/**
 * The one rule for a 429: Retry-After is a floor for every call of the key and kind; without it the announced reset,
 * and without either one whole window. (The 429's remaining and reset also hold calls as any answer's do.)
 */
export function refusalFloorMs(answer: RateAnswer, windowMs: number, now = Date.now()): number {
	const asked = answer.retryAfterMs ?? (answer.resetAt !== undefined ? answer.resetAt - now : windowMs);
	return Math.max(asked, MIN_REFUSAL_WAIT_MS);
}

/**
 * What the refused call itself does: it waits the floor, doubling its own last wait on a repeated refusal as the spec
 * asks, and that fits when it ends within what is left of the call's maximum.
 */
export function decideRefusal(
	answer: RateAnswer,
	call: { refusals: number; lastWaitMs: number; leftMs: number },
	windowMs: number,
): { waitMs: number; fits: boolean } {
	const floor = refusalFloorMs(answer, windowMs);
	const waitMs = call.refusals > 1 ? Math.max(floor, call.lastWaitMs * 2) : floor;
	return { waitMs, fits: waitMs <= call.leftMs };
}
