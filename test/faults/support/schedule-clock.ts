/**
 * The clock of a fault schedule: `Date` and the timers of the nodes, of n8n's engine and of the sandbox on one
 * controlled clock, while HTTP goes over loopback for real. It stands still while nothing is due on it; while
 * something is, it moves on a little at each turn of the event loop, and further each turn that nothing moves on the
 * network, so a 180 s lost-lead search or an hour-long batch passes in a few hundred turns while requests and answers
 * still come in an order a real clock could give. Optionally a fast-check scheduler decides, each time several
 * requests are held at the sandbox's door, which goes in first.
 */
import * as timers from 'node:timers';
import type { Scheduler } from 'fast-check';

import { networkMoves } from './network';

const nextTurn = timers.setImmediate;
const realTimeout = timers.setTimeout;

/** The smallest move, while the network is busy. */
const STEP_MS = 10;
/** The largest move in one turn, after the network stayed quiet for several turns. */
const MAX_STEP_MS = 30_000;
/** How long after the task ends the clock still runs, so that slow commits land before the service is judged. */
const SETTLE_MS = 60 * 60_000;

export interface ScheduleClockRun<T> {
	result: T;
	/** When the task started and ended on the controlled clock (ms since the epoch). */
	startedAt: number;
	endedAt: number;
}

async function turn(): Promise<void> {
	await new Promise((resolve) => nextTurn(resolve));
	await new Promise((resolve) => nextTurn(resolve));
}

/**
 * Runs `task` on the controlled clock until it settles, then lets the clock run on while timers are due (at most
 * SETTLE_MS) so that what the service does late is done; real timers are back afterwards.
 */
export async function onScheduleClock<T>(task: () => Promise<T>, scheduler?: Scheduler): Promise<ScheduleClockRun<T>> {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask'], now: Date.now() });
	try {
		const startedAt = Date.now();
		let endedAt: number | undefined;
		const running = task().finally(() => (endedAt = Date.now()));
		running.catch(() => undefined);
		let step = STEP_MS;
		let seen = networkMoves();
		const advance = async (): Promise<void> => {
			await turn();
			if (scheduler && scheduler.count() > 0) {
				await scheduler.waitOne();
				step = STEP_MS;
				return;
			}
			const moved = networkMoves() !== seen;
			seen = networkMoves();
			if (jest.getTimerCount() === 0) {
				// Nothing is due on the clock: the run waits on the network, which takes no time on it.
				await new Promise((resolve) => realTimeout(resolve, 1));
				return;
			}
			step = moved ? STEP_MS : Math.min(step * 2, MAX_STEP_MS);
			await jest.advanceTimersByTimeAsync(step);
		};
		while (endedAt === undefined) await advance();
		const settleUntil = Date.now() + SETTLE_MS;
		while ((jest.getTimerCount() > 0 || (scheduler?.count() ?? 0) > 0) && Date.now() < settleUntil) await advance();
		return { result: await running, startedAt, endedAt };
	} finally {
		jest.useRealTimers();
	}
}
