/**
 * Trigger in process: signed deliveries through the Prospecting Trigger's webhook() in n8n-core's
 * WebhookContext, as n8n calls it for each request (a fresh context per delivery), after a real
 * activation against the sandbox (checkExists + create through HookContext, which keeps the secret).
 * Each delivery is a distinct event, signed over its raw bytes with the secret the service holds;
 * a share of forged deliveries (wrong signature) checks that verification actually runs.
 * Measured against the HMAC-SHA256 of the same bodies alone, the floor of any verifying receiver.
 */
import { createHmac } from 'node:crypto';

import { WebhookContext } from 'n8n-core';
import type { IDataObject, INodeType, IWebhookData, IWebhookResponseData, IWorkflowBase } from 'n8n-workflow';

import { createAdditionalData, nextExecutionId } from '../../dev/harness/engine';
import { TestCredentialsHelper, nodeTypes, startWebhookReceiver } from '../../dev/harness';
import type { BenchConfig } from '../lib/config';
import { envelope, forgedSignatureHeaders, signatureHeaders } from '../lib/deliveries';
import { percentile, round } from '../lib/measure';
import { SandboxProcess } from '../../dev/sandbox-client';

export interface TriggerInProcessResult {
	deliveries: number;
	verified: number;
	forged: number;
	rejectedForged: number;
	wallMs: number;
	deliveriesPerSecond: number;
	p50Ms: number;
	p99Ms: number;
	hmacPerSecond: number;
	error?: string;
}

/** Every tenth delivery is forged. */
const FORGED_EVERY = 10;

/** The request and response objects n8n's webhook server hands to a node (express-like). */
function requestAndResponse(rawBody: Buffer, headers: Record<string, string>) {
	const request = {
		headers,
		rawBody,
		body: JSON.parse(rawBody.toString('utf8')) as IDataObject,
		query: {},
		params: {},
		method: 'POST',
	};
	const response = {
		statusCode: 200,
		headersSent: false,
		writableEnded: false,
		status(code: number) {
			response.statusCode = code;
			return response;
		},
		json() {
			response.writableEnded = true;
			return response;
		},
		send() {
			response.writableEnded = true;
			return response;
		},
		setHeader() {},
		end() {
			response.writableEnded = true;
		},
	};
	return { request, response };
}

export async function runTriggerInProcess(config: BenchConfig): Promise<TriggerInProcessResult> {
	const sandbox = await SandboxProcess.start({ rateLimit: false, dataset: { leads: 10, routines: 1, prospections: 2 } });
	const receiver = await startWebhookReceiver();
	try {
		const credentials = { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
		const trigger = receiver.createWorkflow({
			credentials: { prospectingApi: credentials },
			parameters: { events: ['prospection.won', 'prospection.lost'] },
		});
		await trigger.activate();
		const hooks = await sandbox.call<Array<{ url: string; secret: string }>>('webhooks');
		if (hooks.length !== 1) throw new Error(`activation left ${hooks.length} webhooks in the sandbox, expected 1`);
		const { secret } = hooks[0];

		const nodeType = nodeTypes.getByNameAndVersion(trigger.node.type, 1) as INodeType;
		const workflowData: IWorkflowBase = {
			id: trigger.workflow.id,
			name: trigger.workflow.name ?? 'bench',
			active: true,
			isArchived: false,
			activeVersionId: null,
			nodes: [trigger.node],
			connections: {},
			createdAt: new Date(),
			updatedAt: new Date(),
		};
		const credentialsHelper = new TestCredentialsHelper({ prospectingApi: { ...credentials } });

		const signed = (body: Buffer, index: number) =>
			(index % FORGED_EVERY === FORGED_EVERY - 1 ? forgedSignatureHeaders(body) : signatureHeaders(secret, body))['x-signature'];
		const bodies = Array.from({ length: config.triggerDeliveries }, (_, i) => Buffer.from(envelope(i, 'evt_inproc')));
		const signatures = bodies.map(signed);

		const deliver = async (index: number): Promise<{ verified: boolean; status: number }> => {
			const { request, response } = requestAndResponse(bodies[index], {
				'content-type': 'application/json',
				'x-signature': signatures[index],
			});
			const additionalData = createAdditionalData({
				executionId: nextExecutionId(),
				mode: 'webhook',
				workflowData,
				credentialsHelper,
				urls: trigger.baseUrls,
			});
			additionalData.httpRequest = request as never;
			additionalData.httpResponse = response as never;
			const webhookData: IWebhookData = {
				httpMethod: 'POST',
				node: trigger.node.name,
				path: `${trigger.node.webhookId}/webhook`,
				webhookDescription: nodeType.description.webhooks![0],
				workflowId: trigger.workflow.id,
				workflowExecuteAdditionalData: additionalData,
				webhookId: trigger.node.webhookId,
				isTest: false,
			};
			const context = new WebhookContext(trigger.workflow, trigger.node, additionalData, 'webhook', webhookData, [], null);
			const result: IWebhookResponseData = await nodeType.webhook!.call(context);
			const verified = Array.isArray(result.workflowData) && result.workflowData[0]?.length === 1;
			return { verified, status: result.noWebhookResponse ? response.statusCode : 200 };
		};

		// Warm-up (module loading, JIT) on the first events; the measured run uses fresh events,
		// since the delivery memory acknowledges a repeated event id without emitting it.
		for (let i = 0; i < Math.min(200, bodies.length); i++) await deliver(i);
		for (let i = 0; i < bodies.length; i++) {
			bodies[i] = Buffer.from(envelope(2_000_000 + i, 'evt_inproc'));
			signatures[i] = signed(bodies[i], i);
		}

		const latencies: number[] = [];
		let verified = 0;
		let forged = 0;
		let rejectedForged = 0;
		const start = performance.now();
		for (let i = 0; i < bodies.length; i++) {
			const t0 = performance.now();
			const outcome = await deliver(i);
			latencies.push(performance.now() - t0);
			const isForged = i % FORGED_EVERY === FORGED_EVERY - 1;
			if (isForged) {
				forged++;
				if (!outcome.verified && outcome.status === 401) rejectedForged++;
			} else if (outcome.verified) verified++;
		}
		const wallMs = performance.now() - start;

		const hmacStart = performance.now();
		for (const body of bodies) createHmac('sha256', secret).update(body).digest('hex');
		const hmacMs = performance.now() - hmacStart;

		await trigger.deactivate();
		return {
			deliveries: bodies.length,
			verified,
			forged,
			rejectedForged,
			wallMs: round(wallMs, 1),
			deliveriesPerSecond: round((verified / wallMs) * 1000, 1),
			p50Ms: round(percentile(latencies, 50), 3),
			p99Ms: round(percentile(latencies, 99), 3),
			hmacPerSecond: round((bodies.length / hmacMs) * 1000, 0),
		};
	} finally {
		await receiver.stop();
		await sandbox.stop();
	}
}
