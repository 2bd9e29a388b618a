/**
 * What the trigger suites share: the sandbox and one webhook receiver for the file, the trigger workflows made on
 * them, and deliveries as the service signs and sends them.
 */
import { createHmac, randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startWebhookReceiver, type TriggerWorkflowHandle, type WebhookReceiver } from '../../dev/harness';
import type { SandboxOptions } from '../../sandbox';
import { useSandbox } from '../support/sandbox';

export interface TriggerOptions {
	/** The trigger's parameters; its defaults when left out. */
	parameters?: Record<string, unknown>;
	/** The credential's Base URL and API key; the sandbox's unless given. */
	baseUrl?: string;
	apiKey?: string;
	/** No credential given, as when the workflow's credential was deleted. */
	withoutCredential?: boolean;
	/** The same workflow saved again: its id, webhook id and static data as `from` left them. */
	from?: TriggerWorkflowHandle;
	/** The static data saved with `from`, when a test changed it. */
	staticData?: IDataObject;
	typeVersion?: number;
	workflowName?: string;
}

/**
 * The sandbox (as `useSandbox` sets it up: seeded data again before each test) and a webhook receiver, both for the
 * test file; `trigger` makes a Prospecting Trigger workflow served by the receiver, `remoteFor` lists the service's
 * webhooks for one URL.
 */
export function useTriggerService(options: SandboxOptions) {
	const { sandbox } = useSandbox(options);
	let running: WebhookReceiver | undefined;
	beforeAll(async () => {
		running = await startWebhookReceiver();
	});
	afterAll(async () => await running?.stop());
	const receiver = (): WebhookReceiver => {
		if (!running) throw new Error('The receiver starts before the first test of the file; use it inside a test.');
		return running;
	};

	function trigger(options: TriggerOptions = {}): TriggerWorkflowHandle {
		const { from } = options;
		const credential = { baseUrl: options.baseUrl ?? sandbox.url, apiKey: options.apiKey ?? sandbox.apiKey };
		return receiver().createWorkflow({
			credentials: options.withoutCredential ? {} : { prospectingApi: credential },
			...(options.parameters ? { parameters: options.parameters as INodeParameters } : {}),
			...(options.typeVersion ? { typeVersion: options.typeVersion } : {}),
			...(options.workflowName ? { workflowName: options.workflowName } : {}),
			...(from ? { workflowId: from.workflow.id, webhookId: from.node.webhookId, staticData: options.staticData ?? from.staticData } : {}),
		});
	}

	const remoteFor = (url: string) => sandbox.control.webhooks().filter((webhook) => webhook.url === url);

	return { sandbox, receiver, trigger, remoteFor };
}

/** The error of a step expected to fail (an activation, a deactivation); throws when it succeeds. */
export async function failureOf(step: Promise<unknown>): Promise<Error & { description?: string }> {
	const error = await step.then(
		() => undefined,
		(caught: unknown) => caught as Error & { description?: string },
	);
	if (error === undefined) throw new Error('The step was expected to fail');
	return error;
}

/** An event's envelope as the service sends it: a WON prospection with a fresh event id, unless overridden. */
export function envelope(overrides: Record<string, unknown> = {}): string {
	return JSON.stringify({
		id: randomUUID(),
		test: false,
		event: 'prospection.won',
		data: { prospection: { id: 'pr_x', status: 'WON', leadId: 'ld_x', createdAt: '2026-01-01T00:00:00.000Z' }, lead: { id: 'ld_x' } },
		retries: 0,
		manualRetries: 0,
		createdAt: new Date().toISOString(),
		...overrides,
	});
}

/** The signature of `body` with a webhook's secret, as the service sends it (hex). */
export function sign(secret: string, body: Buffer | string, algorithm = 'sha256'): string {
	return createHmac(algorithm, secret).update(body).digest('hex');
}

/** Posts a delivery to a trigger's URL as the service would, with these headers. */
export async function deliver(url: string, body: Buffer | string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
	const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
	return { status: response.status, text: await response.text() };
}
