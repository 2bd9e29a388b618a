/**
 * The trigger in real n8n: signed deliveries pushed with autocannon at the production webhook URL
 * the Prospecting Trigger registered with the sandbox on activation, every request a distinct
 * event (repeated event ids are acknowledged without an execution) signed with the secret the
 * sandbox holds for that webhook. Measured against n8n's own Webhook node (no verification) under
 * the same load in the same run.
 */
import type { IDataObject } from 'n8n-workflow';

import type { N8nClient } from '../../scripts/lib/n8n-client';
import type { BenchConfig } from '../lib/config';
import { executionCount, loadDeliveries, forgedSignatureHeaders, settledExecutionCount, signatureHeaders, webhooksWhen } from '../lib/deliveries';
import { round } from '../lib/measure';
import type { SandboxProcess } from '../../dev/sandbox-client';
import { PLAIN_WEBHOOK_PATH, plainWebhookWorkflow, triggerWorkflow } from './workflows';

export interface LoadFigures {
	requestsPerSecond: number;
	p50Ms: number;
	p99Ms: number;
	status2xx: number;
	non2xx: number;
	errors: number;
	timeouts: number;
	executions?: number;
}

export interface WebhookLoadResult extends LoadFigures {
	seconds: number;
	connections: number;
	/** One connection, one delivery at a time: latency without queueing. */
	sequential?: LoadFigures;
	baseline?: LoadFigures & { label: string; sequential?: LoadFigures };
	withoutRepeatMemory?: { sequential: LoadFigures; forged: LoadFigures; loaded: LoadFigures };
	/** Forged deliveries one at a time: refused (401) in webhook(), no execution. */
	forged?: LoadFigures;
	against: string;
	error?: string;
}

async function load(
	url: string,
	config: BenchConfig,
	sign: ((body: string) => Record<string, string>) | undefined,
	connections = config.loadConnections,
	duration = config.loadSeconds,
): Promise<LoadFigures> {
	const result = await loadDeliveries(url, { connections, seconds: duration, sign });
	return {
		requestsPerSecond: round(result.requests.average, 1),
		p50Ms: result.latency.p50,
		p99Ms: result.latency.p99,
		status2xx: result['2xx'],
		non2xx: result.non2xx,
		errors: result.errors,
		timeouts: result.timeouts,
	};
}

const SEQUENTIAL_SECONDS = 5;

export async function runWebhookLoad(ctx: {
	config: BenchConfig;
	client: N8nClient;
	n8nUrl: string;
	sandbox: SandboxProcess;
	log: (text: string) => void;
}): Promise<WebhookLoadResult> {
	const { config, client, sandbox, log } = ctx;
	await sandbox.reset();
	await sandbox.setRateLimit({ enabled: false });

	// Baseline: n8n's Webhook node answering on receipt, no verification, same load.
	const plain = await client.createWorkflow(plainWebhookWorkflow('Bench plain webhook'));
	await client.activateWorkflow(plain.id, plain.versionId);
	const plainUrl = `${ctx.n8nUrl}/webhook/${PLAIN_WEBHOOK_PATH}`;
	log(`n8n webhook load: plain Webhook node baseline (${config.loadConnections} connections, ${config.loadSeconds} s)`);
	// The plain Webhook node is published in the background too: wait until it answers.
	for (let i = 0; i < 120; i++) {
		const probe = await fetch(plainUrl, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
		await probe.arrayBuffer();
		if (probe.status === 200) break;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	const baselineSequential = await load(plainUrl, config, undefined, 1, SEQUENTIAL_SECONDS);
	const baselineAfterSequential = await settledExecutionCount(client, plain.id);
	const baselineFigures = await load(plainUrl, config, undefined);
	baselineFigures.executions = (await settledExecutionCount(client, plain.id)) - baselineAfterSequential;
	log(`  → sequential ${JSON.stringify(baselineSequential)}; loaded ${JSON.stringify(baselineFigures)}`);
	await client.deactivateWorkflow(plain.id);

	const credential = await client.createCredential('Prospecting API (bench sandbox)', 'prospectingApi', {
		baseUrl: sandbox.url,
		apiKey: sandbox.apiKey,
	});
	const measureTrigger = async (name: string, webhookId: string, options: IDataObject) => {
		const workflow = await client.createWorkflow(
			triggerWorkflow({ name, credential: { id: credential.id, name: credential.name }, webhookId, options }),
		);
		await client.activateWorkflow(workflow.id, workflow.versionId);
		// n8n 2.x publishes an activated workflow's triggers in the background: wait (bounded) for
		// the trigger's create() to have registered the webhook with the service.
		const hooks = await webhooksWhen(sandbox, (count) => count > 0);
		if (hooks.length !== 1) throw new Error(`expected the trigger to register one webhook, the sandbox holds ${hooks.length}`);
		const [hook] = hooks;
		log(`n8n webhook load: ${name} at ${hook.url}`);
		const sign = (body: string) => signatureHeaders(hook.secret, body);
		const sequential = await load(hook.url, config, sign, 1, SEQUENTIAL_SECONDS);
		const afterSequential = await settledExecutionCount(client, workflow.id);
		sequential.executions = afterSequential;
		// Forged deliveries are refused inside webhook() and start no execution: their latency is
		// n8n's webhook path plus the node's verification, without an execution.
		const forged = await load(hook.url, config, forgedSignatureHeaders, 1, SEQUENTIAL_SECONDS);
		if ((await executionCount(client, workflow.id)) !== afterSequential) throw new Error('a forged delivery started an execution');
		const loaded = await load(hook.url, config, sign);
		loaded.executions = (await settledExecutionCount(client, workflow.id)) - afterSequential;
		log(`  → sequential ${JSON.stringify(sequential)}; forged ${JSON.stringify(forged)}; loaded ${JSON.stringify(loaded)}`);
		await client.deactivateWorkflow(workflow.id);
		await webhooksWhen(sandbox, (count) => count === 0);
		return { sequential, forged, loaded };
	};

	const main = await measureTrigger('Bench Prospecting Trigger', 'bench-prospecting-trigger-id', {});
	// Diagnostic: the same trigger without its repeated-delivery memory, which lives in the
	// workflow's static data (so n8n persists the workflow after every accepted delivery).
	const withoutMemory = await measureTrigger('Bench Prospecting Trigger (no repeat memory)', 'bench-prospecting-trigger-nomem-id', {
		ignoreRepeatedDeliveries: false,
	});
	const { sequential } = main;
	return {
		...main.loaded,
		seconds: config.loadSeconds,
		connections: config.loadConnections,
		sequential,
		forged: main.forged,
		withoutRepeatMemory: withoutMemory,
		baseline: { label: "n8n's Webhook node (no verification)", ...baselineFigures, sequential: baselineSequential },
		against:
			`n8n's own Webhook node (no verification), same instance and load: ${Math.round(baselineFigures.requestsPerSecond)} req/s, p99 ${baselineFigures.p99Ms} ms ` +
			`(${baselineFigures.executions} executions); one connection at a time: trigger p50 ${sequential.p50Ms} ms / p99 ${sequential.p99Ms} ms, ` +
			`Webhook node p50 ${baselineSequential.p50Ms} ms / p99 ${baselineSequential.p99Ms} ms; forged deliveries (refused in webhook(), no execution) p50 ${main.forged.p50Ms} ms, ${main.forged.non2xx} refused, ${main.forged.status2xx} accepted; ` +
			`trigger with Ignore Repeated Deliveries off: ${Math.round(withoutMemory.loaded.requestsPerSecond)} req/s loaded, p50 ${withoutMemory.sequential.p50Ms} ms one at a time`,
	};
}
