import { createHmac, randomUUID } from 'node:crypto';

import { createTriggerWorkflow, executeWorkflow, registerNodeType, startWebhookReceiver } from '../../dev/harness';
import type { TriggerWorkflowHandle, WebhookReceiver } from '../../dev/harness';
import { ECHO_API_NODE_TYPE, EchoApi } from './fixtures/echo-api.node';
import { SIGNED_HOOK_TRIGGER_NODE_TYPE, SignedHookTrigger } from './fixtures/signed-hook-trigger.node';
import { startRecordingServer } from './fixtures/recording-server';
import type { RecordingServer } from './fixtures/recording-server';

const API_KEY = 'harness-trigger-key-abcdefghijklmnopqrstuv';

registerNodeType(SIGNED_HOOK_TRIGGER_NODE_TYPE, new SignedHookTrigger());
registerNodeType(ECHO_API_NODE_TYPE, new EchoApi());

interface RemoteHook {
	id: string;
	url: string;
	event: string;
	secret: string;
}

/** A minimal remote API: keeps registered hooks, delivers signed events to their URL on request. */
function hookApi() {
	const hooks = new Map<string, RemoteHook>();
	const respond = (request: Parameters<Parameters<typeof startRecordingServer>[0]>[0]) => {
		if (request.url.searchParams.get('apiKey') !== API_KEY) return { status: 401, body: { message: 'Chave inválida' } };
		if (request.method === 'GET' && request.url.pathname === '/hooks') {
			return { status: 200, body: { data: [...hooks.values()].map(({ id, url, event }) => ({ id, url, event })) } };
		}
		if (request.method === 'POST' && request.url.pathname === '/hooks') {
			const input = JSON.parse(request.body) as { url: string; event: string };
			const hook = { id: randomUUID(), secret: randomUUID(), ...input };
			hooks.set(hook.id, hook);
			return { status: 201, body: hook };
		}
		const match = /^\/hooks\/(.+)$/.exec(request.url.pathname);
		if (request.method === 'DELETE' && match) {
			return hooks.delete(match[1]) ? { status: 204, body: {} } : { status: 404, body: { message: 'Não encontrado' } };
		}
		return { status: 404, body: { message: 'Rota desconhecida' } };
	};
	return { hooks, respond };
}

async function sendSigned(hook: RemoteHook, body: string, secret = hook.secret) {
	const signature = createHmac('sha256', secret).update(body).digest('hex');
	return await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': signature }, body });
}

describe('trigger helpers', () => {
	let api: ReturnType<typeof hookApi>;
	let server: RecordingServer;
	let handle: TriggerWorkflowHandle;
	let receiver: WebhookReceiver;

	beforeEach(async () => {
		api = hookApi();
		server = await startRecordingServer(api.respond);
		handle = createTriggerWorkflow({
			nodeType: SIGNED_HOOK_TRIGGER_NODE_TYPE,
			parameters: { event: 'prospection.won' },
			credentials: { prospectingApi: { baseUrl: server.url, apiKey: API_KEY } },
		});
		receiver = await startWebhookReceiver(handle);
	});

	afterEach(async () => {
		await receiver.stop();
		await server.stop();
	});

	it('runs webhook methods through HookContext with real credentials, HTTP and static data', async () => {
		expect(await handle.runWebhookMethod('checkExists')).toBe(false);
		expect(await handle.runWebhookMethod('create')).toBe(true);

		const [hook] = [...api.hooks.values()];
		expect(hook.url).toBe(handle.webhookUrl('trigger'));
		expect(hook.url).toBe(`${receiver.url}/webhook/${handle.node.webhookId}/webhook`);
		expect(handle.nodeStaticData).toEqual({ hookId: hook.id, secret: hook.secret });
		expect(server.requests.every((request) => request.url.searchParams.get('apiKey') === API_KEY)).toBe(true);
		expect(await handle.runWebhookMethod('checkExists')).toBe(true);

		expect(await handle.runWebhookMethod('delete')).toBe(true);
		expect(api.hooks.size).toBe(0);
		expect(handle.nodeStaticData).toEqual({});
	});

	it('gives the test URL in manual mode, distinct from the production URL', async () => {
		await handle.runWebhookMethod('create', 'manual');

		const [hook] = [...api.hooks.values()];
		expect(hook.url).toBe(`${receiver.url}/webhook-test/${handle.node.webhookId}/webhook`);
		expect(handle.webhookUrl('manual')).toBe(hook.url);
		expect(handle.webhookUrl('trigger')).not.toBe(hook.url);
	});

	it('keeps static data across a restart built from the persisted copy', async () => {
		await handle.activate();
		const restarted = handle.restart();

		expect(restarted.webhookUrl()).toBe(handle.webhookUrl());
		expect(await restarted.runWebhookMethod('checkExists')).toBe(true);
		expect(restarted.staticData).toEqual(handle.staticData);
		expect(JSON.stringify(restarted.staticData)).not.toContain('__dataChanged');

		receiver.use(restarted);
		const [hook] = [...api.hooks.values()];
		const response = await sendSigned(hook, '{"id":"after-restart"}');
		expect(response.status).toBe(200);
		expect(restarted.deliveries.map((delivery) => delivery.workflowData?.[0][0].json)).toEqual([{ id: 'after-restart' }]);
		expect(handle.deliveries).toHaveLength(0);
	});

	it('delivers real HTTP requests to webhook() with the exact raw body, answering as n8n does', async () => {
		await handle.activate();
		const [hook] = [...api.hooks.values()];
		// Whitespace and key order that re-serialised JSON would not reproduce.
		const body = '{ "event":"prospection.won",  "id": "evt-1" }';

		const accepted = await sendSigned(hook, body);
		const forged = await sendSigned(hook, body, 'wrong-secret');
		const crashed = await sendSigned(hook, '{"crash":true}');
		const unknownPath = await fetch(`${receiver.url}/webhook/nobody/webhook`, { method: 'POST', body: '{}' });

		expect(accepted.status).toBe(200);
		expect(await accepted.json()).toEqual({ message: 'Workflow was started' });
		expect(forged.status).toBe(401);
		expect(await forged.json()).toEqual({ message: 'Invalid signature' });
		expect(crashed.status).toBe(500);
		expect(unknownPath.status).toBe(404);

		expect(receiver.deliveries.map((delivery) => delivery.status)).toEqual([200, 401, 500]);
		expect(receiver.deliveries[0].workflowData).toEqual([[{ json: { event: 'prospection.won', id: 'evt-1' } }]]);
		expect(receiver.deliveries[1].workflowData).toBeUndefined();
		expect(receiver.deliveries[2].error?.message).toBe('Crashed while handling the delivery');
	});

	it('delivers in process, without HTTP, through the same WebhookContext', async () => {
		await handle.activate();
		const { secret } = handle.nodeStaticData as { secret: string };
		const body = '{"id":"evt-2"}';

		const results = await Promise.all(
			Array.from({ length: 200 }, async (_, index) =>
				await handle.deliver({
					headers: { 'Content-Type': 'application/json', 'X-Signature': createHmac('sha256', `guess-${index}`).update(body).digest('hex') },
					rawBody: body,
				}),
			),
		);
		const genuine = await handle.deliver({
			headers: { 'content-type': 'application/json', 'x-signature': createHmac('sha256', secret).update(body).digest('hex') },
			rawBody: Buffer.from(body),
		});
		const unparsable = await handle.deliver({ headers: { 'content-type': 'application/json' }, rawBody: '{"id":' });

		expect(results.filter((result) => result.workflowData !== undefined)).toHaveLength(0);
		expect(new Set(results.map((result) => result.status))).toEqual(new Set([401]));
		expect(genuine.status).toBe(200);
		expect(genuine.workflowData?.[0][0].json).toEqual({ id: 'evt-2' });
		expect(unparsable.status).toBe(422);
		expect(unparsable.workflowData).toBeUndefined();
	});

	it('runs the workflow a delivery starts, with the trigger node as its start', async () => {
		await handle.activate();
		const { secret } = handle.nodeStaticData as { secret: string };
		const body = '{"path":"/hooks"}';
		const delivery = await handle.deliver({
			headers: { 'content-type': 'application/json', 'x-signature': createHmac('sha256', secret).update(body).digest('hex') },
			rawBody: body,
		});

		const { output, error } = await executeWorkflow(
			{
				nodes: [
					handle.node,
					{
						id: 'echo',
						name: 'Echo API',
						type: ECHO_API_NODE_TYPE,
						typeVersion: 1,
						position: [200, 0],
						parameters: { path: '={{ $json.path }}' },
						credentials: handle.node.credentials,
					},
				],
				connections: { [handle.node.name]: { main: [[{ node: 'Echo API', type: 'main', index: 0 }]] } },
			},
			{
				credentials: { prospectingApi: { baseUrl: server.url, apiKey: API_KEY } },
				inputItems: delivery.workflowData![0].map((item) => item.json),
				mode: 'webhook',
			},
		);

		expect(error).toBeUndefined();
		expect(output(handle.node.name).map((item) => item.json)).toEqual([{ path: '/hooks' }]);
		expect(output('Echo API')[0].json).toEqual({ data: [expect.objectContaining({ url: handle.webhookUrl() })] });
	});
});
