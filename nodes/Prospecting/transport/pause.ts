import { sleepWithAbort } from 'n8n-workflow';

/**
 * Waits `ms`, ending early with n8n's cancellation error when the execution is cancelled, so a user who stops a run
 * does not sit out a rate-limit window.
 */
export const pause = async (ms: number, signal?: AbortSignal): Promise<void> => await sleepWithAbort(ms, signal);

/** [10] Ends a wait of a cancelled execution with n8n's cancellation error. */
export async function leaveIfCancelled(signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) await sleepWithAbort(0, signal);
}

/** The execution's cancel signal, when the calling context has one. */
export function cancelSignal(context: object): AbortSignal | undefined {
	const getter = (context as { getExecutionCancelSignal?: () => AbortSignal | undefined }).getExecutionCancelSignal;
	return typeof getter === 'function' ? getter.call(context) : undefined;
}
