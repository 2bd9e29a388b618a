import * as workflow from 'n8n-workflow';

/**
 * Waits `ms`, ending early with n8n's cancellation error when the execution is cancelled, so a user who stops a run
 * does not sit out a rate-limit window. n8n 2.41's n8n-workflow has no sleepWithAbort: there the wait simply runs.
 */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	const { sleepWithAbort } = workflow as { sleepWithAbort?: typeof workflow.sleepWithAbort };
	await (typeof sleepWithAbort === 'function' ? sleepWithAbort(ms, signal) : workflow.sleep(ms));
}

/** [10] Ends the wait of a cancelled execution, with n8n's cancellation error where n8n has one to give. */
export async function leaveIfCancelled(signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) throw await pause(0, signal).then(() => new Error('The execution was cancelled'));
}

/** The execution's cancel signal, when the calling context has one. */
export function cancelSignal(context: object): AbortSignal | undefined {
	const getter = (context as { getExecutionCancelSignal?: () => AbortSignal | undefined }).getExecutionCancelSignal;
	return typeof getter === 'function' ? getter.call(context) : undefined;
}
