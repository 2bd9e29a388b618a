/**
 * What the benchmarks send to the Prospecting Trigger and how they wait for what it started: delivery bodies as the
 * service sends them (every one a distinct event), their signature, and bounded waits on n8n's executions and on
 * the webhooks the trigger registered with the sandbox.
 */
import { createHmac, randomUUID } from 'node:crypto';

import autocannon from 'autocannon';

import type { N8nClient } from '../../scripts/lib/n8n-client';
import type { SandboxProcess } from '../../dev/sandbox-client';

/** One delivery's body: a won (even index) or lost (odd index) prospection, with a fresh event id. */
export function envelope(index: number, idPrefix = 'evt_bench'): string {
	const now = new Date().toISOString();
	return JSON.stringify({
		id: `${idPrefix}_${index}_${randomUUID()}`,
		test: false,
		event: index % 2 ? 'prospection.lost' : 'prospection.won',
		data: {
			prospection: { id: `pr_bench_${index}`, status: index % 2 ? 'LOST' : 'WON', leadId: 'ld_bench', createdAt: now },
			lead: { id: 'ld_bench', name: 'Bench Lead', company: 'Benchmark Ltda' },
		},
		retries: 0,
		manualRetries: 0,
		createdAt: now,
	});
}

/** The service's signature header over the exact bytes of a body. */
export function signatureHeaders(secret: string, body: string | Buffer): Record<string, string> {
	return { 'x-signature': createHmac('sha256', secret).update(body).digest('hex') };
}

/** Deliveries POSTed by autocannon for `seconds` over `connections`, each a new event (signed when `sign` is given). */
export async function loadDeliveries(
	url: string,
	options: { connections: number; seconds: number; sign?: (body: string) => Record<string, string> },
): Promise<autocannon.Result> {
	let index = 0;
	return await autocannon({
		url,
		connections: options.connections,
		duration: options.seconds,
		timeout: 30,
		requests: [
			{
				method: 'POST',
				setupRequest: (request: Record<string, unknown>) => {
					const body = envelope(index++);
					return { ...request, body, headers: { 'content-type': 'application/json', ...(options.sign?.(body) ?? {}) } };
				},
			},
		],
	});
}

/** Signed with a secret the service never gave: the trigger must refuse it. */
export const forgedSignatureHeaders = (body: string | Buffer) => signatureHeaders('not-the-secret', body);

/** n8n's names of the states an execution ends in. */
export const FINISHED = ['success', 'error', 'crashed', 'canceled'];

/**
 * A workflow's executions; with `status`, only those in one of these states (n8n's names: success, error, ...); with
 * `started`, only those n8n started between two times (epoch ms, both included).
 */
export async function executionCount(
	client: N8nClient,
	workflowId: string,
	status?: string[],
	started?: { from: number; to: number },
): Promise<number> {
	const range = started && { startedAfter: new Date(started.from).toISOString(), startedBefore: new Date(started.to).toISOString() };
	const filter = encodeURIComponent(JSON.stringify({ workflowId, ...(status && { status }), ...range }));
	return (await client.request<{ count: number }>('GET', `/rest/executions?filter=${filter}&limit=1`)).count;
}

/**
 * When n8n started running the first of a workflow's executions in [from, to] (epoch ms, n8n's own record, to
 * 10 ms), or undefined when it started none. n8n lists executions newest first, so the earliest is found by halving.
 */
export async function firstStartedBetween(client: N8nClient, workflowId: string, from: number, to: number): Promise<number | undefined> {
	if ((await executionCount(client, workflowId, FINISHED, { from, to })) === 0) return undefined;
	let [none, some] = [from - 1, to];
	while (some - none > 10) {
		const middle = Math.floor((none + some) / 2);
		if ((await executionCount(client, workflowId, FINISHED, { from, to: middle })) > 0) some = middle;
		else none = middle;
	}
	return some;
}

/** Waits (bounded, 2 min) until a workflow's executions stop growing: the runs a load started have finished. */
export async function settledExecutionCount(client: N8nClient, workflowId: string): Promise<number> {
	let last = -1;
	for (let i = 0; i < 120; i++) {
		const count = await executionCount(client, workflowId);
		if (count === last) return count;
		last = count;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	return last;
}

/** Polls the sandbox's webhooks (bounded, 30 s) until `done(count)` holds; returns the last view. */
export async function webhooksWhen(
	sandbox: SandboxProcess,
	done: (count: number) => boolean,
): Promise<Array<{ url: string; secret: string }>> {
	let hooks: Array<{ url: string; secret: string }> = [];
	for (let i = 0; i < 120; i++) {
		hooks = await sandbox.call<Array<{ url: string; secret: string }>>('webhooks');
		if (done(hooks.length)) break;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return hooks;
}
