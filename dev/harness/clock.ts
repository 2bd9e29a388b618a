/**
 * A controllable clock for waits of whole rate-limit windows: the node's sleeps, its reading of
 * Date.now() and the sandbox's fixed windows all run on one clock that the test moves on, while
 * HTTP still goes over loopback for real. A 60 s Retry-After is then sat out in full on that clock
 * in a fraction of a second. The clock stands still while nothing is due on it (the run waits on the
 * network), and moves on a few milliseconds at each turn of the event loop while something is, so the
 * order of events is one a real clock could give.
 */
import * as timers from 'node:timers';

/** Real timers, kept before any test replaces the global ones. */
const nextTurn = timers.setImmediate;
const realTimeout = timers.setTimeout;

/** How far the clock moves on at each turn of the event loop. */
const STEP_MS = 10;

export interface ClockRun<T> {
	result: T;
	/** How long the run took on the controlled clock, in ms. */
	elapsedMs: number;
}

/**
 * Runs `task` with Date, setTimeout and setInterval on a controlled clock that starts at the real
 * time and, while a timer is due on it, moves on STEP_MS at each turn of the event loop, until `task`
 * settles; real timers are back afterwards. Only for work that ends on its own: a wait that never
 * ends keeps the clock going until the test times out.
 */
export async function onControlledClock<T>(task: () => Promise<T>): Promise<ClockRun<T>> {
	jest.useFakeTimers({
		doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask'],
		now: Date.now(),
	});
	try {
		const started = Date.now();
		let ended: number | undefined;
		const running = task().finally(() => {
			ended = Date.now();
		});
		running.catch(() => undefined);
		while (ended === undefined) {
			if (jest.getTimerCount() === 0) {
				// Nothing is due on the clock: the run waits on the network, which takes no time on it.
				await new Promise((resolve) => realTimeout(resolve, 1));
			} else {
				await new Promise((resolve) => nextTurn(resolve));
				await jest.advanceTimersByTimeAsync(STEP_MS);
			}
		}
		const result = await running;
		return { result, elapsedMs: (ended ?? Date.now()) - started };
	} finally {
		jest.useRealTimers();
	}
}
