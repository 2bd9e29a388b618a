/**
 * Secrets: one trigger lifecycle with genuine and forged deliveries, then one workflow run of the
 * action node with several failures and successes (a 429 past the maximum, answers echoing the
 * key, a lost answer, a 404, bad input, a final error that stops the run). Everything the package
 * produced is captured (outputs, which are what a user pins, the errors with every field, n8n's
 * logger lines and console output, delivery answers) and scanned for the API key and the webhook
 * secret, plain and URL-encoded.
 */
import type { INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { startSandbox } from '../../sandbox';
import type { RunningSandbox } from '../../sandbox';
import { resetBudgets } from '../../nodes/Prospecting/transport/rateBudget';
import { allLogLines, createTriggerWorkflow, executeWorkflow, findSecret, startWebhookReceiver } from '../../dev/harness';
import { inLine, prospectingNamed, startNode } from '../nodes/support';
import type { DeliveryResult, WorkflowRunResult } from '../../dev/harness';

// Characters that URL encoding changes, so the plain and the encoded forms differ.
const API_KEY = 'sk+live/5ecr3t=key&x%20y_0123456789ABCDEFabcdef';

let sandbox: RunningSandbox;
let credentials: { prospectingApi: { baseUrl: string; apiKey: string } };

beforeAll(async () => {
	sandbox = await startSandbox({
		apiKeys: [API_KEY],
		rateLimit: false,
		dataset: { leads: 6, prospections: 4, customFields: 3 },
	});
	credentials = { prospectingApi: { baseUrl: sandbox.url, apiKey: API_KEY } };
});
afterAll(async () => await sandbox.stop());
beforeEach(() => resetBudgets());

function node(name: string, parameters: INodeParameters, continueOnFail = true): INode {
	return { ...prospectingNamed(name, parameters), ...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}) };
}

it('neither the API key nor the webhook secret appears in anything a trigger lifecycle and a failing run produce', async () => {
	// --- The trigger: activation, a genuine delivery, a forged one, deactivation.
	const handle = createTriggerWorkflow({ parameters: { events: ['prospection.won'] }, credentials });
	const receiver = await startWebhookReceiver(handle);
	const deliveries: DeliveryResult[] = [];
	let webhookSecret = '';
	try {
		await handle.activate();
		const [registered] = sandbox.control.webhooks();
		webhookSecret = registered.secret;
		await sandbox.control.setProspectionStatus(sandbox.control.prospections()[0].id, 'WON');
		deliveries.push(...(await receiver.waitForDeliveries(1)));
		deliveries.push(
			await handle.deliver({
				headers: { 'x-signature': 'ab'.repeat(32) },
				rawBody: Buffer.from('{"id":"forged","event":"prospection.won"}'),
			}),
		);
		await handle.runWebhookMethod('delete');
	} finally {
		await receiver.stop();
	}
	expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 401]);
	const triggerItems = deliveries[0].workflowData?.[0] ?? [];
	expect(triggerItems).toHaveLength(1);

	// --- One run of the action node, fed by the trigger's output, with failures and successes.
	const echo = `apiKey=${API_KEY} and ${encodeURIComponent(API_KEY)}`;
	sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 2 });
	sandbox.control.injectFault({
		kind: 'malformed',
		count: 1,
		pathPrefix: '/custom-fields',
		body: JSON.stringify({ data: [{ id: 'cf_echo', note: echo }], meta: { page: 1, totalPages: 1 } }),
	});
	sandbox.control.injectFault({
		kind: 'malformed',
		count: 5,
		pathPrefix: '/routines',
		body: `<html>proxy error for /api/v1/routines?${echo}</html>`,
	});
	sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'], pathPrefix: '/leads' });
	const routine = sandbox.control.routines()[0];
	const run: WorkflowRunResult = await executeWorkflow(
		inLine(
			startNode,
			node('Storm', { resource: 'webhook', operation: 'getMany', returnAll: true, options: { maxRateLimitWait: 1 } }),
			node('Echo', { resource: 'customField', operation: 'getMany', returnAll: true }),
			node('Not JSON', { resource: 'routine', operation: 'getMany', returnAll: true }),
			node('Bad Input', { resource: 'lead', operation: 'create', email: 'not-an-address', options: { maxRateLimitWait: 5 } }),
			node('Lost Answer', { resource: 'lead', operation: 'create', name: 'Secreta', email: 'secret.scan@example.com' }),
			node('Missing', { resource: 'webhook', operation: 'delete', webhookId: 'wh_missing' }),
			node(
				'Stops',
				{
					resource: 'routine',
					operation: 'addLead',
					routineId: { __rl: true, mode: 'id', value: routine.id },
					leadId: 'lead_missing',
				},
				false,
			),
		),
		{ credentials, inputItems: triggerItems.map((item) => item.json), mode: 'webhook' },
	);
	sandbox.control.clearFaults();

	// What happened, so the scan below covers real failures and successes.
	const out = (name: string): INodeExecutionData[] => run.output(name);
	expect(out('Storm')[0].json.error).toMatch(/^Rate limit still reached/);
	expect(out('Echo')[0].json).toMatchObject({ id: 'cf_echo' });
	expect(String(out('Echo')[0].json.note)).toContain('***');
	expect(out('Not JSON')[0].json.error).toMatch(/not JSON/);
	// A page that is not the service's answer is named, never quoted: the echoed key cannot travel in it.
	expect(String(out('Not JSON')[0].json.description)).toMatch(/^The answer was an HTML page\. /);
	expect(String(out('Not JSON')[0].json.description)).not.toMatch(/proxy error|apiKey/);
	expect(out('Bad Input')[0].json.error).toMatch(/^email: /);
	expect(out('Lost Answer')[0].json).toMatchObject({ name: 'Secreta' });
	expect(out('Missing')[0].json.error).toMatch(/was not found \(404\)/);
	expect(run.error?.message).toMatch(/Routine ".*" or lead "lead_missing" was not found \(404\)/);
	expect(sandbox.control.requests().some((request) => request.query.apiKey === '***')).toBe(true);

	const error = run.error as (Error & Record<string, unknown>) | undefined;
	const places = {
		'workflow run (outputs, errors as n8n stores them)': run.run,
		'node outputs (what a user pins)': ['Storm', 'Echo', 'Not JSON', 'Bad Input', 'Lost Answer', 'Missing'].map(out),
		'error message': error?.message,
		'error description': error?.description,
		'error JSON': JSON.stringify(error),
		'error with every own field': JSON.stringify(error, Object.getOwnPropertyNames(error ?? {})),
		'error object': error,
		'run logs and console': run.logs,
		'trigger logs': handle.logs,
		'delivery answers, items and logs': deliveries.map((delivery) => ({
			status: delivery.status,
			body: delivery.body,
			items: delivery.workflowData,
			error: delivery.error,
			logs: delivery.logs,
		})),
		'every log line of this process': allLogLines,
	};
	expect(webhookSecret).toMatch(/^[0-9a-f]{64}$/);
	expect(findSecret(API_KEY, places)).toEqual([]);
	expect(findSecret(webhookSecret, places)).toEqual([]);
	// The scan itself finds a secret where there is one.
	expect(findSecret(API_KEY, { control: `x${encodeURIComponent(API_KEY)}x` })).toEqual(['control']);
}, 60_000);
