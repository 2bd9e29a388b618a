/**
 * The package in a real n8n (each version of scripts/lib/n8n-versions.txt, one run each): installed from its
 * `npm pack` tarball as a community package, used through n8n's REST API and production webhooks, against the
 * sandbox on loopback. Steps run in order on one instance.
 */
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { nodeOutput, type StoredWorkflow, type WorkflowJson } from '../../scripts/lib/n8n-client';
import { importWorkflows, readWorkflowFiles, webhookUrl } from '../../scripts/lib/instance-setup';
import { repoRoot } from '../../scripts/lib/provision';
import { useE2eInstance } from './support/instance';
import { decideProspection, waitFor } from './support/waits';
import { runByWebhook as runWorkflowByWebhook, type WebhookCall } from './support/webhook-runs';
import { resourceWorkflows } from './support/workflows';

jest.setTimeout(180_000);

const e2e = useE2eInstance();
const examples: Record<string, StoredWorkflow> = {};
const resources: Partial<Record<keyof typeof resourceWorkflows, StoredWorkflow>> = {};

const TRIGGER_NODE = 'Prospection won or lost';

/** Calls a workflow's Webhook node and returns the finished execution it started. */
const runByWebhook = async (workflow: StoredWorkflow, call?: WebhookCall) =>
	await runWorkflowByWebhook({ client: e2e.client, webhookBaseUrl: e2e.n8n.url }, workflow, call);

/** Reads a list straight from the sandbox API (to compare with what the node returned). */
async function apiTotal(pathAndQuery: string): Promise<number> {
	const separator = pathAndQuery.includes('?') ? '&' : '?';
	const response = await fetch(`${e2e.sandbox.url}/api/v1${pathAndQuery}${separator}limit=1&page=1&apiKey=${e2e.sandbox.apiKey}`);
	const json = (await response.json()) as { meta: { total: number } };
	return json.meta.total;
}

function conversionFromSandbox() {
	const prospections = e2e.sandbox.control.prospections();
	const won = prospections.filter((p) => p.status === 'WON').length;
	const lost = prospections.filter((p) => p.status === 'LOST').length;
	return { won, lost, conversionRate: won + lost === 0 ? 0 : won / (won + lost) };
}

const ourWebhooks = () => e2e.sandbox.control.webhooks().filter((w) => w.url.startsWith(`${e2e.n8n.url}/webhook/`));

describe('the package installed in n8n', () => {
	test('n8n loads both nodes and the credential type from the community package', async () => {
		const nodeTypes = (await e2e.client.nodeTypes()).map((t) => t.name);
		expect(nodeTypes).toEqual(expect.arrayContaining(['n8n-nodes-prospecting.prospecting', 'n8n-nodes-prospecting.prospectingTrigger']));
		const credentialTypes = (await e2e.client.credentialTypes()).map((t) => t.name);
		expect(credentialTypes).toContain('prospectingApi');
		expect(e2e.n8n.output()).not.toMatch(/Failed to load package "n8n-nodes-prospecting"/);
		// Installed from the tarball into .n8n/nodes, not pointed at the source tree.
		const installed = path.join(e2e.userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-prospecting', 'package.json');
		expect(JSON.parse(readFileSync(installed, 'utf8')).name).toBe('n8n-nodes-prospecting');
	});

	test('the credential test passes with the right key', async () => {
		const result = await e2e.client.testCredential(e2e.credential);
		expect(result).toEqual(expect.objectContaining({ status: 'OK' }));
	});

	test('the credential test fails clearly with a wrong key, without showing it', async () => {
		const result = await e2e.client.testCredential(e2e.wrongCredential);
		expect(result.status).toBe('Error');
		// n8n 2.x shows the credential's own message for a 401; n8n 1.x's credential test shows its generic one.
		expect(result.message).toMatch(
			e2e.runtime.n8nVersion.startsWith('1.') ? /^Authorization failed - please check your credentials$/ : /API key was refused \(401\)/,
		);
		expect(result.message).not.toContain(e2e.wrongApiKey);
	});
});

describe('the example workflows', () => {
	beforeAll(async () => {
		const routineId = e2e.sandbox.control.routines()[0].id;
		const imported = await importWorkflows(
			e2e.client,
			readWorkflowFiles(path.join(repoRoot, 'examples')),
			{ credential: e2e.credential, routineId },
			{ activate: () => true },
		);
		for (const { file, workflow } of imported) examples[file] = workflow;
	});

	test('all import and activate', () => {
		expect(Object.keys(examples).sort()).toEqual(['funnel-report.json', 'lead-capture-form.json', 'lead-capture.json', 'won-lost-message.json']);
	});

	test('lead capture answers { received: true } at once, creates the lead in the routine, and does not duplicate it when sent again', async () => {
		const contact = { name: 'Ana Souza', company: 'Acme Ltda', email: `ana.${Date.now()}@example.com`, phone: '+55 11 91234-5678' };
		const routineId = e2e.sandbox.control.routines()[0].id;
		const first = await runByWebhook(examples['lead-capture.json'], { body: contact, nodeName: 'Lead form' });
		expect(first.response).toEqual({ received: true });
		const [created] = nodeOutput(first.execution, 'Create lead');
		expect(created).toEqual(expect.objectContaining({ name: contact.name, leadOutcome: 'created' }));
		const leads = e2e.sandbox.control.leads().filter((l) => l.emails.some((e) => e.value === contact.email));
		expect(leads).toHaveLength(1);
		expect(leads[0].id).toBe(created.id);
		expect(leads[0].company).toBe(contact.company);
		expect(leads[0].routineIds).toEqual([routineId]);

		const second = await runByWebhook(examples['lead-capture.json'], { body: contact, nodeName: 'Lead form' });
		expect(second.response).toEqual({ received: true });
		expect(nodeOutput(second.execution, 'Create lead')).toEqual([expect.objectContaining({ id: created.id, leadOutcome: 'found' })]);
		expect(second.execution.data.resultData.runData['Add to routine']).toBeUndefined();
		expect(e2e.sandbox.control.leads().filter((l) => l.emails.some((e) => e.value === contact.email))).toHaveLength(1);
	});

	test("lead capture shows a stranger nothing of an existing lead, and does not add that lead to the routine", async () => {
		const email = `bia.${Date.now()}@example.com`;
		const stored = await fetch(`${e2e.sandbox.url}/api/v1/leads?apiKey=${e2e.sandbox.apiKey}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'Bia Costa', company: 'Costa Ltda', emails: [{ value: email, label: 'Principal' }] }),
		});
		const lead = (await stored.json()) as { id: string };
		const adds = () => e2e.sandbox.control.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/lead')).length;
		const addsBefore = adds();

		const { response, execution } = await runByWebhook(examples['lead-capture.json'], { body: { email }, nodeName: 'Lead form' });

		expect(response).toEqual({ received: true });
		expect(nodeOutput(execution, 'Create lead')).toEqual([expect.objectContaining({ id: lead.id, leadOutcome: 'found' })]);
		expect(execution.data.resultData.runData['Add to routine']).toBeUndefined();
		expect(adds()).toBe(addsBefore);
		expect(e2e.sandbox.control.leads().find((l) => l.id === lead.id)?.routineIds).toEqual([]);
	});

	test('lead capture answers before the lead is written: a slow service does not hold the caller', async () => {
		e2e.sandbox.control.injectFault({ kind: 'latency', ms: 3000 });
		try {
			const url = webhookUrl(e2e.n8n.url, examples['lead-capture.json'], 'Lead form');
			const before = (await e2e.client.listExecutions(examples['lead-capture.json'].id)).length;
			const started = Date.now();
			const response = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ name: 'Caio Prado', company: 'Prado ME', email: `caio.${started}@example.com` }),
			});
			const answeredMs = Date.now() - started;
			expect(response.headers.get('content-type')).toMatch(/^application\/json/);
			expect(await response.json()).toEqual({ received: true });
			await e2e.client.waitForExecutions(examples['lead-capture.json'].id, before + 1);
			const finishedMs = Date.now() - started;
			process.stderr.write(`[e2e] n8n ${e2e.runtime.n8nVersion}, lead capture with 3 s per service call: answered in ${answeredMs} ms, run finished after ${finishedMs} ms\n`);
			// Two calls of 3 s each (search, create) come after the answer.
			expect(answeredMs).toBeLessThan(2000);
			expect(finishedMs).toBeGreaterThan(6000);
		} finally {
			e2e.sandbox.control.clearFaults();
		}
	});

	test('the funnel report gives the conversion rate of the decided prospections', async () => {
		const { response } = await runByWebhook(examples['funnel-report.json'], { method: 'GET', nodeName: 'Report request' });
		const expected = conversionFromSandbox();
		const report = response as { won: number; lost: number; conversionRate: number; report: string };
		expect(report.won).toBe(expected.won);
		expect(report.lost).toBe(expected.lost);
		expect(report.conversionRate).toBeCloseTo(expected.conversionRate, 10);
		expect(report.report).toContain(`${(expected.conversionRate * 100).toFixed(1)}%`);
	});
});

describe('one workflow per resource, every operation', () => {
	beforeAll(async () => {
		for (const [resource, workflow] of Object.entries(resourceWorkflows) as Array<[keyof typeof resourceWorkflows, WorkflowJson]>) {
			const [imported] = await importWorkflows(
				e2e.client,
				[{ file: `${resource}.json`, workflow }],
				{ credential: e2e.credential },
				{ activate: () => true },
			);
			resources[resource] = imported.workflow;
		}
	});

	test('lead: create, create again with skip-if-exists, search, limit', async () => {
		const contact = { name: 'Bruno Lima', company: 'Lima & Filhos', email: `bruno.${Date.now()}@example.com`, phone: '+55 21 99876-5432' };
		const { execution } = await runByWebhook(resources.lead!, { body: contact });
		const [created] = nodeOutput(execution, 'Create lead');
		expect(created).toEqual(expect.objectContaining({ name: contact.name, company: contact.company }));
		const [again] = nodeOutput(execution, 'Create lead again, skip if it exists');
		expect(again.id).toBe(created.id);
		const stored = e2e.sandbox.control.leads().filter((l) => l.emails.some((e) => e.value === contact.email));
		expect(stored.map((l) => l.id)).toEqual([created.id]);
		expect(nodeOutput(execution, 'Search leads').map((l) => l.id)).toEqual([created.id]);
		const three = nodeOutput(execution, 'Get three leads');
		expect(three).toHaveLength(3);
		expect(new Set(three.map((l) => l.id)).size).toBe(3);
	});

	test('routine: get all, add a lead', async () => {
		const lead = e2e.sandbox.control.leads().find((l) => l.routineIds.length === 0) ?? e2e.sandbox.control.leads()[0];
		const { execution } = await runByWebhook(resources.routine!, { body: { leadId: lead.id } });
		const routines = nodeOutput(execution, 'Get all routines');
		expect(routines.map((r) => r.id).sort()).toEqual(e2e.sandbox.control.routines().map((r) => r.id).sort());
		expect(nodeOutput(execution, 'Add lead to routine')).toHaveLength(1);
		const after = e2e.sandbox.control.leads().find((l) => l.id === lead.id)!;
		expect(after.routineIds).toContain(routines[0].id);
	});

	test('prospection: get all, activities, filter by status, conversion rate', async () => {
		const { execution } = await runByWebhook(resources.prospection!, { body: {} });
		const all = nodeOutput(execution, 'Get all prospections');
		expect(all.map((p) => p.id).sort()).toEqual(e2e.sandbox.control.prospections().map((p) => p.id).sort());
		const activities = nodeOutput(execution, 'Get activities');
		expect(activities.length).toBe(await apiTotal(`/prospections/${String(all[0].id)}/activities`));
		expect(activities.length).toBeGreaterThan(0);
		const won = nodeOutput(execution, 'Get won prospections');
		const expected = conversionFromSandbox();
		expect(won.length).toBe(expected.won);
		expect(won.every((p) => p.status === 'WON')).toBe(true);
		const [rate] = nodeOutput(execution, 'Get conversion rate');
		expect(rate).toEqual(expect.objectContaining({ won: expected.won, lost: expected.lost }));
		expect(rate.conversionRate as number).toBeCloseTo(expected.conversionRate, 10);
	});

	test("custom field: get all; the credential also authenticates n8n's HTTP Request node", async () => {
		const { execution } = await runByWebhook(resources.customField!, { body: { baseUrl: e2e.sandbox.url } });
		const fields = nodeOutput(execution, 'Get all custom fields');
		const total = await apiTotal('/custom-fields');
		expect(fields.length).toBe(total);
		expect(fields.length).toBeGreaterThan(0);
		const [page] = nodeOutput(execution, 'HTTP Request with the credential');
		expect((page.meta as { total: number }).total).toBe(total);
	});

	test('conversation thread: get all of one channel', async () => {
		const { execution } = await runByWebhook(resources.conversationThread!, { body: {} });
		const threads = nodeOutput(execution, 'Get WhatsApp threads');
		expect(threads.length).toBe(await apiTotal('/conversations/threads?channel=WHATSAPP'));
		expect(threads.length).toBeGreaterThan(0);
		expect(threads.every((t) => t.channel === 'WHATSAPP')).toBe(true);
	});

	test('webhook: create (with its secret), get all, delete', async () => {
		const url = 'http://127.0.0.1:9/e2e-receiver';
		const { execution } = await runByWebhook(resources.webhook!, { body: { url } });
		const [created] = nodeOutput(execution, 'Create webhook');
		expect(created).toEqual(expect.objectContaining({ url, name: 'E2E receiver' }));
		expect(typeof created.secret).toBe('string');
		expect(nodeOutput(execution, 'Get all webhooks').map((w) => w.id)).toContain(created.id);
		expect(nodeOutput(execution, 'Delete webhook')[0]).toEqual(expect.objectContaining({ id: created.id, deleted: true }));
		expect(e2e.sandbox.control.webhooks().map((w) => w.id)).not.toContain(created.id);
	});
});

describe('the trigger in n8n (won/lost example)', () => {
	let triggerWorkflow: StoredWorkflow;
	let triggerUrl: string;
	const successes = async () =>
		(await e2e.client.listExecutions(triggerWorkflow.id)).filter((e) => e.status === 'success');

	/** Sets a prospection's status and returns the execution its event produced. */
	async function decide(status: 'WON' | 'LOST', previousCount: number) {
		const { prospection, delivery } = await decideProspection(e2e.sandbox, status);
		expect(delivery.delivered).toBe(true);
		const executions = await waitFor('the execution', successes, (list) => list.length >= previousCount + 1);
		expect(executions).toHaveLength(previousCount + 1);
		const execution = await e2e.client.getExecution(executions[0].id);
		return { prospection, delivery, execution };
	}

	/** n8n answers 404 on a production webhook path until the workflow is active; the trigger then refuses unsigned posts. */
	async function waitForTriggerRegistered(url = triggerUrl) {
		const status = async () => (await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status;
		await waitFor('n8n to serve the trigger URL', status, (code) => code === 401, 60_000);
	}

	beforeAll(() => {
		triggerWorkflow = examples['won-lost-message.json'];
	});

	test('activation leaves exactly one remote webhook, with n8n production URL and both events', async () => {
		await waitFor('the remote webhook to be created', ourWebhooks, (list) => list.length > 0, 60_000);
		await waitForTriggerRegistered(ourWebhooks()[0].url);
		const hooks = ourWebhooks();
		expect(hooks).toHaveLength(1);
		const node = triggerWorkflow.nodes.find((n) => n.name === TRIGGER_NODE)!;
		expect(hooks[0].url).toBe(`${e2e.n8n.url}/webhook/${String(node.webhookId)}/webhook`);
		expect([...hooks[0].events].sort()).toEqual(['prospection.lost', 'prospection.won']);
		triggerUrl = hooks[0].url;
	});

	test('a prospection set to WON produces one successful execution whose output is the event', async () => {
		const { prospection, delivery, execution } = await decide('WON', (await successes()).length);
		expect(execution.status).toBe('success');
		const [emitted] = nodeOutput(execution, TRIGGER_NODE);
		expect(emitted).toEqual(JSON.parse(delivery.body));
		expect(emitted.event).toBe('prospection.won');
		const [message] = nodeOutput(execution, 'Format message');
		expect(message).toEqual(expect.objectContaining({ event: 'prospection.won', prospectionId: prospection.id, status: 'WON' }));
		expect(String(message.message)).toMatch(/^Won: /);
	});

	test('a prospection set to LOST produces one successful execution whose output is the event', async () => {
		const { prospection, delivery, execution } = await decide('LOST', (await successes()).length);
		const [emitted] = nodeOutput(execution, TRIGGER_NODE);
		expect(emitted).toEqual(JSON.parse(delivery.body));
		expect(emitted.event).toBe('prospection.lost');
		expect(nodeOutput(execution, 'Format message')[0]).toEqual(
			expect.objectContaining({ event: 'prospection.lost', prospectionId: prospection.id, status: 'LOST' }),
		);
	});

	test('a forged delivery is refused and starts no execution', async () => {
		const before = (await e2e.client.listExecutions(triggerWorkflow.id)).length;
		const genuine = e2e.sandbox.control.deliveries().find((d) => d.url === triggerUrl && d.delivered)!;
		const forgedBody = JSON.stringify({ ...JSON.parse(genuine.body), id: `${JSON.parse(genuine.body).id}-forged` });
		const forgedSignature = createHmac('sha256', 'not-the-secret').update(forgedBody).digest('hex');
		const response = await fetch(triggerUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-signature': forgedSignature },
			body: forgedBody,
		});
		expect(response.status).toBe(401);
		// A genuine signature on a changed body is refused too.
		const replayed = await fetch(triggerUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-signature': genuine.signature },
			body: forgedBody,
		});
		expect(replayed.status).toBe(401);
		await new Promise((resolve) => setTimeout(resolve, 2000));
		expect(await e2e.client.listExecutions(triggerWorkflow.id)).toHaveLength(before);
	});

	// n8n 2.x publishes and unpublishes through its publication outbox, so activation and deactivation take effect
	// shortly after the REST call returns: the checks below wait for the outcome (up to a minute), then hold it.
	test('deactivation removes the remote webhook', async () => {
		await e2e.client.deactivateWorkflow(triggerWorkflow.id);
		await waitFor('the remote webhook to be deleted', ourWebhooks, (hooks) => hooks.length === 0, 60_000);
	});

	test('activation after a restart of n8n leaves exactly one remote webhook, which still delivers', async () => {
		await e2e.client.activateWorkflow(triggerWorkflow.id);
		const [created] = await waitFor('the remote webhook to be created', ourWebhooks, (hooks) => hooks.length > 0, 60_000);
		await e2e.restartN8n();
		// Give n8n's start-up activation time to run its check (and, if it were wrong, to create a duplicate).
		await waitForTriggerRegistered();
		await new Promise((resolve) => setTimeout(resolve, 3000));
		const hooks = ourWebhooks();
		expect(hooks).toHaveLength(1);
		expect(hooks[0].id).toBe(created.id);
		expect(hooks[0].url).toBe(triggerUrl);
		const { execution } = await decide('WON', (await successes()).length);
		expect(nodeOutput(execution, TRIGGER_NODE)[0].event).toBe('prospection.won');
	});
});

describe('the API key at rest', () => {
	test("n8n's database, execution data and log hold the API key nowhere but the encrypted credential", async () => {
		const secrets = [e2e.sandbox.apiKey, e2e.wrongApiKey];
		const forms = (secret: string) => [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')];
		// The key was used: the sandbox answered n8n's authenticated calls.
		expect(e2e.sandbox.control.requests().filter((r) => r.status === 200).length).toBeGreaterThan(10);

		const workflows = await e2e.client.listWorkflows();
		let executionsScanned = 0;
		for (const workflow of workflows) {
			for (const summary of await e2e.client.listExecutions(workflow.id)) {
				const { rawData } = await e2e.client.getExecution(summary.id);
				executionsScanned++;
				for (const secret of secrets) for (const form of forms(secret)) expect(rawData).not.toContain(form);
			}
		}
		expect(executionsScanned).toBeGreaterThanOrEqual(10);

		await e2e.n8n.stop(); // flushes the sqlite write-ahead log into the database file
		const n8nFolder = path.join(e2e.userFolder, '.n8n');
		const files = listFiles(n8nFolder).filter((file) => !file.startsWith(path.join(n8nFolder, 'nodes') + path.sep));
		expect(files.some((file) => path.basename(file) === 'database.sqlite')).toBe(true);
		const database = readFileSync(path.join(n8nFolder, 'database.sqlite'));
		// The credential is there, encrypted: its name is stored in clear, its data is not.
		expect(database.includes(Buffer.from('Prospecting API'))).toBe(true);
		for (const file of [...files, e2e.logFile]) {
			const bytes = readFileSync(file);
			for (const secret of secrets) {
				for (const form of forms(secret)) {
					if (bytes.includes(Buffer.from(form)) || bytes.includes(Buffer.from(form, 'utf16le'))) {
						throw new Error(`${path.relative(e2e.runDir, file)} contains the API key (${form === secret ? 'plain' : 'encoded'})`);
					}
				}
			}
		}
	});
});

function listFiles(directory: string): string[] {
	return readdirSync(directory).flatMap((entry) => {
		const full = path.join(directory, entry);
		return statSync(full).isDirectory() ? listFiles(full) : [full];
	});
}
