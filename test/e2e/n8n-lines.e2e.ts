/**
 * The same checks on every n8n line the suite runs (2.x and 1.x, one run each): n8n is the version the run asked
 * for, and a trigger workflow's whole life through the REST client behaves the same whether n8n activates through
 * its publication outbox (2.x) or within the activation call (1.x): activation registers exactly one remote
 * webhook, a refused activation fails with n8n's error and leaves nothing behind, deactivation and deletion clean up.
 */
import { randomUUID } from 'node:crypto';

import type { StoredWorkflow, WorkflowJson } from '../../scripts/lib/n8n-client';
import { bindWorkflow } from '../../scripts/lib/instance-setup';
import { useE2eInstance } from './support/instance';

jest.setTimeout(180_000);

const e2e = useE2eInstance();

/** A Prospecting Trigger on prospection.won, with a webhook id of its own so that its remote webhook can be told apart. */
function triggerWorkflow(name: string): { workflow: WorkflowJson; webhookId: string } {
	const webhookId = randomUUID();
	return {
		webhookId,
		workflow: {
			name,
			nodes: [
				{
					id: randomUUID(),
					name: 'Prospection won',
					type: 'n8n-nodes-prospecting.prospectingTrigger',
					typeVersion: 1,
					position: [0, 0],
					webhookId,
					parameters: { events: ['prospection.won'], otherEvents: '', options: {} },
					credentials: { prospectingApi: { id: '', name: '' } },
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		},
	};
}

const remoteWebhooksOf = (webhookId: string) =>
	e2e.sandbox.control.webhooks().filter((w) => w.url === `${e2e.n8n.url}/webhook/${webhookId}/webhook`);

/** The remote webhooks once their number has settled at `count` (n8n 2.x applies (de)activation just after it reports it). */
async function remoteWebhooksSettled(webhookId: string, count: number, timeoutMs = 20_000) {
	const deadline = Date.now() + timeoutMs;
	while (remoteWebhooksOf(webhookId).length !== count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
	await new Promise((r) => setTimeout(r, 1000)); // and it stays there
	return remoteWebhooksOf(webhookId);
}

describe(`n8n ${process.env.N8N_VERSION ?? ''}`.trim(), () => {
	test('is the version this run asked for, and the client knows it', async () => {
		const settings = await e2e.client.request<{ versionCli: string }>('GET', '/rest/settings');
		expect(settings.versionCli).toBe(e2e.runtime.n8nVersion);
		expect(e2e.client.n8nVersion).toBe(e2e.runtime.n8nVersion);
		if (process.env.N8N_VERSION) expect(e2e.runtime.n8nVersion).toBe(process.env.N8N_VERSION);
	});

	describe('a trigger workflow through the REST client', () => {
		let stored: StoredWorkflow;
		let webhookId: string;

		beforeAll(async () => {
			const made = triggerWorkflow(`Lifecycle ${randomUUID().slice(0, 8)}`);
			webhookId = made.webhookId;
			stored = await e2e.client.createWorkflow(bindWorkflow(made.workflow, { credential: e2e.wrongCredential }));
		});

		test('is created inactive', async () => {
			expect((await e2e.client.getWorkflow(stored.id)).active).toBe(false);
			expect((await e2e.client.publicationStatus(stored.id)).status).toBe('not_published');
		});

		test('a refused activation (wrong API key) fails with the reason, leaves no remote webhook, and the workflow is not live', async () => {
			const error = await e2e.client.activateWorkflow(stored.id).then(
				() => undefined,
				(reason: Error) => reason,
			);
			expect(error).toBeInstanceOf(Error);
			expect(error!.message).toMatch(/401|API key|chave/i);
			expect(error!.message).not.toContain(e2e.wrongApiKey);
			const status = (await e2e.client.publicationStatus(stored.id)).status;
			if (e2e.client.publishesThroughOutbox) {
				// n8n 2.x keeps the version it was asked to publish and reports the publication failed until it succeeds.
				expect(status).toBe('failed');
			} else {
				// n8n 1.x rolls the activation back.
				expect(status).toBe('not_published');
				expect((await e2e.client.getWorkflow(stored.id)).active).toBe(false);
			}
			expect(await remoteWebhooksSettled(webhookId, 0)).toHaveLength(0);
		});

		test('once the credential is corrected, activation registers exactly one remote webhook', async () => {
			await e2e.client.updateCredential(e2e.wrongCredential.id, e2e.wrongCredential.name, e2e.wrongCredential.type, {
				baseUrl: e2e.sandbox.url,
				apiKey: e2e.sandbox.apiKey,
			});
			expect((await e2e.client.testCredential(e2e.wrongCredential)).status).toBe('OK');
			await e2e.client.activateWorkflow(stored.id);
			const status = await e2e.client.publicationStatus(stored.id);
			expect(status.status).toBe('published');
			expect((await e2e.client.getWorkflow(stored.id)).active).toBe(true);
			const hooks = await remoteWebhooksSettled(webhookId, 1);
			expect(hooks).toHaveLength(1);
			expect(hooks[0].events).toEqual(['prospection.won']);
		});

		test('activating it again changes nothing', async () => {
			const before = remoteWebhooksOf(webhookId).map((w) => w.id);
			await e2e.client.activateWorkflow(stored.id);
			expect((await remoteWebhooksSettled(webhookId, 1)).map((w) => w.id)).toEqual(before);
		});

		test('deactivation removes the remote webhook; deletion removes the workflow', async () => {
			await e2e.client.deactivateWorkflow(stored.id);
			expect((await e2e.client.publicationStatus(stored.id)).status).toBe('not_published');
			expect(await remoteWebhooksSettled(webhookId, 0)).toHaveLength(0);
			await e2e.client.deleteWorkflow(stored.id);
			expect((await e2e.client.listWorkflows()).map((w) => w.id)).not.toContain(stored.id);
		});
	});
});
