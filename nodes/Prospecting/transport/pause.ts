import * as workflow from 'n8n-workflow';

/**
 * Waits `ms`, ending early with n8n's cancellation error when the execution is cancelled, so a user who stops a run
 * does not sit out a rate-limit window. n8n versions without sleepWithAbort simply wait.
 */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	const { sleepWithAbort } = workflow as { sleepWithAbort?: typeof workflow.sleepWithAbort };
	if (typeof sleepWithAbort === 'function') return await sleepWithAbort(ms, signal);
	await workflow.sleep(ms);
}

/** [8] Ends a wait of a cancelled execution with n8n's cancellation error (or, without it, a plain one). */
export async function leaveIfCancelled(signal?: AbortSignal): Promise<void> {
	if (!signal?.aborted) return;
	await pause(0, signal);
	throw new Error('The execution was cancelled');
}

/** The execution's cancel signal, when the calling context has one. */
export function cancelSignal(context: object): AbortSignal | undefined {
	const getter = (context as { getExecutionCancelSignal?: () => AbortSignal | undefined }).getExecutionCancelSignal;
	return typeof getter === 'function' ? getter.call(context) : undefined;
}
