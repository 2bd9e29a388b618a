import { pause } from './pause';

/** The call could go only later than its deadline allows. */
export class RateWaitTooLong extends Error {
	constructor(readonly neededMs: number) {
		super(`The rate limit allows this call in ${Math.round(neededMs)} ms`);
	}
}

/** `deadlineAt`: no wait may end later (the call fails with `RateWaitTooLong`). */
export interface AcquireOptions {
	signal?: AbortSignal;
	deadlineAt?: number;
	onWait?: (ms: number) => void;
}

/**
 * The waiting side of a rate budget: callers take turns in the order they came, only the one at the head waits for
 * the budget, and a caller whose execution is cancelled or whose deadline passes leaves at once, even from deep in
 * the queue. Nothing here knows a rate rule.
 */
export class CallQueue {
	/** Callers waiting for their turn or in it. */
	waiting = 0;
	private tail: Promise<unknown> = Promise.resolve();
	private answerWaiters: Array<() => void> = [];

	/**
	 * Runs `turn` after every earlier caller's, or leaves: on cancellation with n8n's cancellation error, at
	 * `deadlineAt` with `tooLate()`'s error. A turn that still comes for a caller that left gets `abandon` (its result
	 * is given back).
	 */
	async enter<T>(
		turn: () => Promise<T>,
		leave: { signal?: AbortSignal; deadlineAt?: number; tooLate: () => Error; abandon: (result: T) => void },
	): Promise<T> {
		const { signal, deadlineAt } = leave;
		let left = false;
		this.waiting += 1;
		const run = this.tail.then(async () => {
			if (signal?.aborted) await pause(0, signal);
			if (deadlineAt !== undefined && Date.now() > deadlineAt) throw leave.tooLate();
			const result = await turn();
			if (left) leave.abandon(result);
			return result;
		});
		this.tail = run.catch(() => undefined);
		const stop = new AbortController();
		const exits: Array<Promise<never>> = [];
		if (deadlineAt !== undefined) {
			exits.push(
				pause(Math.max(0, deadlineAt - Date.now()), stop.signal).then(() => {
					throw leave.tooLate();
				}),
			);
		}
		if (signal) exits.push(cancelled(signal, stop.signal));
		let done = false;
		try {
			const result = await Promise.race([run, ...exits]);
			done = true;
			return result;
		} finally {
			if (!done) left = true;
			stop.abort();
			this.waiting -= 1;
		}
	}

	/** Resolves at the next `answered()`, at `until` when given, or rejects when the execution is cancelled. */
	async nextAnswer(signal: AbortSignal | undefined, until: number | undefined): Promise<void> {
		const stop = new AbortController();
		const waits: Array<Promise<unknown>> = [new Promise<void>((resolve) => this.answerWaiters.push(resolve))];
		if (until !== undefined) waits.push(pause(Math.max(0, until - Date.now()), stop.signal).catch(() => undefined));
		if (signal) waits.push(cancelled(signal, stop.signal));
		try {
			await Promise.race(waits);
		} finally {
			stop.abort();
		}
	}

	/** An answer came (or a call was given back): whoever waits for one looks again. */
	answered(): void {
		const waiters = this.answerWaiters;
		this.answerWaiters = [];
		for (const wake of waiters) wake();
	}
}

/** Rejects with n8n's cancellation error once the execution is cancelled; `done` ends the watch. */
async function cancelled(signal: AbortSignal, done: AbortSignal): Promise<never> {
	await new Promise<void>((resolve) => {
		if (signal.aborted) return resolve();
		const onAbort = () => resolve();
		signal.addEventListener('abort', onAbort, { once: true });
		done.addEventListener('abort', () => signal.removeEventListener('abort', onAbort), { once: true });
	});
	await pause(0, signal);
	throw new Error('The execution was cancelled');
}
