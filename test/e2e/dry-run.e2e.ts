/**
 * Dry Run and safe manual runs in a real n8n 2.41.1: each write run from the editor (POST /rest/workflows/:id/run,
 * the editor's Execute workflow, mode 'manual'; and the test webhook URL) with each credential setting, and an active
 * workflow, against the sandbox; the sandbox's request log shows which writes reached the service. The lead form
 * example tested from the editor: its answer and its last node say nothing was sent, and how to send.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { nodeOutput, type ExecutionDetail, type StoredWorkflow } from '../../scripts/lib/n8n-client';
import { bindWorkflow, formUrl, webhookUrl } from '../../scripts/lib/instance-setup';
import type { WorkflowJson } from '../../scripts/lib/n8n-client';
import { repoRoot } from '../../scripts/lib/provision';
import { useE2eInstance } from './support/instance';
import { chainWorkflow, MANUAL_TRIGGER, manualTrigger, prospectingNode, webhookTrigger } from './support/workflows';
import { theFourWrites } from '../support/writes';

jest.setTimeout(180_000);

type Credential = { id: string; name: string; type: string };

const e2e = useE2eInstance();
/** The suite's credential, saved without "Writes in Manual Runs": n8n applies the field's default. */
let savedBefore: Credential;
const credentials: Record<'dryRun' | 'ask' | 'send', Credential> = {} as never;

beforeAll(async () => {
	savedBefore = e2e.credential;
	for (const setting of ['dryRun', 'ask', 'send'] as const) {
		credentials[setting] = await e2e.client.createCredential(`Prospecting API (${setting})`, 'prospectingApi', {
			baseUrl: e2e.sandbox.url,
			apiKey: e2e.sandbox.apiKey,
			manualWrites: setting,
		});
	}
}, 300_000);

const writes = () => e2e.sandbox.control.requests().filter((request) => request.kind === 'write');

const WRITES = theFourWrites(() => e2e.sandbox);

async function saveWorkflow(name: string, trigger: ReturnType<typeof manualTrigger>, parameters: Record<string, unknown>, credential: Credential): Promise<StoredWorkflow> {
	const node = prospectingNode('Write', parameters);
	node.credentials = { prospectingApi: { id: credential.id, name: credential.name } };
	return await e2e.client.createWorkflow(chainWorkflow(`${name} ${randomUUID().slice(0, 8)}`, [trigger, node]));
}

/** The editor's Execute workflow on a saved workflow; waits for the execution. */
async function runFromEditor(workflow: StoredWorkflow): Promise<ExecutionDetail> {
	const started = await e2e.client.runManually(workflow.id, MANUAL_TRIGGER);
	expect(started.executionId).toBeDefined();
	const execution = await e2e.client.waitForExecution(String(started.executionId));
	expect(execution.mode).toBe('manual');
	return execution;
}

function hintsOf(execution: ExecutionDetail): string {
	const runs = (execution.data.resultData.runData.Write ?? []) as Array<{ hints?: Array<{ message?: string }> }>;
	return runs.flatMap((run) => (run.hints ?? []).map((hint) => String(hint.message))).join('\n');
}

function expectNoKey(execution: ExecutionDetail): void {
	expect(execution.rawData.includes(e2e.sandbox.apiKey)).toBe(false);
	expect(execution.rawData.includes(encodeURIComponent(e2e.sandbox.apiKey))).toBe(false);
}

describe.each(WRITES)('$name run from the editor', (write) => {
	beforeEach(() => e2e.sandbox.control.reset());

	it('credential saved without the setting (n8n applies Dry Run): nothing is written, the would-be request is shown', async () => {
		const { parameters, path } = await write.prepare();
		const before = writes().length;
		const workflow = await saveWorkflow(write.name, manualTrigger(), parameters, savedBefore);
		const execution = await runFromEditor(workflow);
		expect(execution.status).toBe('success');
		expect(writes().slice(before)).toEqual([]);
		const [output] = nodeOutput(execution, 'Write');
		expect(output).toMatchObject({ dryRun: true, written: false, operation: write.name });
		expect(output.request).toMatchObject({ method: write.method, path, url: `${e2e.sandbox.url}/api/v1${path}`, query: {} });
		expect(String(output.message)).toMatch(/^Dry run: nothing was written/);
		expect(hintsOf(execution)).toMatch(/Dry run: nothing was written to the service/);
		expectNoKey(execution);
	});

	it('credential on Dry Run: nothing is written', async () => {
		const { parameters } = await write.prepare();
		const before = writes().length;
		const execution = await runFromEditor(await saveWorkflow(write.name, manualTrigger(), parameters, credentials.dryRun));
		expect(execution.status).toBe('success');
		expect(writes().slice(before)).toEqual([]);
		expect(nodeOutput(execution, 'Write')[0]).toMatchObject({ dryRun: true, written: false });
	});

	it('credential on Stop With Error: the run fails with the error, nothing is written', async () => {
		const { parameters, path } = await write.prepare();
		const before = writes().length;
		const execution = await runFromEditor(await saveWorkflow(write.name, manualTrigger(), parameters, credentials.ask));
		expect(execution.status).toBe('error');
		expect(writes().slice(before)).toEqual([]);
		const error = execution.data.resultData.runData.Write?.[0]?.error;
		expect(error?.message).toBe(
			`${write.name} would write to production: ${write.method} ${path} changes the account's real data, and the service has no test environment. Nothing was sent (item 0)`,
		);
		expect(String(error?.description)).toMatch(/"Writes in Manual Runs" is "Stop With Error"/);
		expect(String(error?.description)).toMatch(/"Always Send"/);
		expectNoKey(execution);
	});

	it('credential on Send: the write reaches the service', async () => {
		const { parameters, path } = await write.prepare();
		const before = writes().length;
		const execution = await runFromEditor(await saveWorkflow(write.name, manualTrigger(), parameters, credentials.send));
		expect(execution.status).toBe('success');
		const sent = writes().slice(before);
		expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([`${write.method} /api/v1${path}`]);
		expect(nodeOutput(execution, 'Write')[0].dryRun).toBeUndefined();
	});

	it('node Dry Run "Always Send" overrides the credential\'s Stop With Error', async () => {
		const { parameters } = await write.prepare();
		const before = writes().length;
		const execution = await runFromEditor(
			await saveWorkflow(write.name, manualTrigger(), { ...parameters, dryRun: 'never' }, credentials.ask),
		);
		expect(execution.status).toBe('success');
		expect(writes().slice(before)).toHaveLength(1);
	});
});

describe('test URL and active workflow', () => {
	beforeEach(() => e2e.sandbox.control.reset());

	it('a run through the test webhook URL is a manual run: Lead Create is a dry run', async () => {
		const { parameters } = await WRITES[0].prepare();
		const path = `dry-${randomUUID()}`;
		const workflow = await saveWorkflow('Lead via test URL', webhookTrigger(path) as never, parameters, savedBefore);
		const started = await e2e.client.runManually(workflow.id, 'Webhook');
		expect(started.waitingForWebhook).toBe(true);
		const response = await fetch(`${e2e.n8n.url}/webhook-test/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({}),
		});
		expect(response.status).toBe(200);
		const [execution] = await e2e.client.waitForExecutions(workflow.id, 1);
		const detail = await e2e.client.waitForExecution(execution.id);
		expect(detail.mode).toBe('manual');
		expect(writes()).toEqual([]);
		expect(nodeOutput(detail, 'Write')[0]).toMatchObject({ dryRun: true, written: false });
		expectNoKey(detail);
	});

	it.each(WRITES.map((write) => [write.name, write] as const))(
		'an active workflow writes for real (%s), with the credential on Dry Run',
		async (_name, write) => {
			const { parameters, path } = await write.prepare();
			const hookPath = `live-${randomUUID()}`;
			const workflow = await saveWorkflow(`${write.name} live`, webhookTrigger(hookPath) as never, parameters, credentials.dryRun);
			await e2e.client.activateWorkflow(workflow.id, workflow.versionId);
			try {
				const before = writes().length;
				const response = await fetch(webhookUrl(e2e.n8n.url, workflow, 'Webhook'), {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({}),
				});
				expect(response.status).toBe(200);
				const [execution] = await e2e.client.waitForExecutions(workflow.id, 1);
				const detail = await e2e.client.getExecution(execution.id);
				expect(detail.mode).toBe('webhook');
				expect(detail.status).toBe('success');
				const sent = writes().slice(before);
				expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([`${write.method} /api/v1${path}`]);
				expect(nodeOutput(detail, 'Write')[0].dryRun).toBeUndefined();
				expectNoKey(detail);
			} finally {
				await e2e.client.deactivateWorkflow(workflow.id);
			}
		},
	);

	it('an active workflow with the node on "Always Dry Run" writes nothing', async () => {
		const { parameters } = await WRITES[0].prepare();
		const hookPath = `live-dry-${randomUUID()}`;
		const workflow = await saveWorkflow('Lead live dry', webhookTrigger(hookPath) as never, { ...parameters, dryRun: 'always' }, credentials.send);
		await e2e.client.activateWorkflow(workflow.id, workflow.versionId);
		try {
			const response = await fetch(webhookUrl(e2e.n8n.url, workflow, 'Webhook'), { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
			expect(response.status).toBe(200);
			const [execution] = await e2e.client.waitForExecutions(workflow.id, 1);
			const detail = await e2e.client.getExecution(execution.id);
			expect(detail.mode).toBe('webhook');
			expect(writes()).toEqual([]);
			expect(nodeOutput(detail, 'Write')[0]).toMatchObject({ dryRun: true, written: false });
		} finally {
			await e2e.client.deactivateWorkflow(workflow.id);
		}
	});
});

describe('the lead form example tested from the editor', () => {
	beforeEach(() => e2e.sandbox.control.reset());

	const THANKS = 'Thanks! A salesperson from our team will contact you soon.';
	const form = (person: { name: string; email: string }) => {
		const body = new FormData();
		body.append('field-0', person.name);
		body.append('field-1', 'Teste Ltda');
		body.append('field-2', person.email);
		body.append('field-3', '');
		body.append('field-4', JSON.stringify(['I agree to be contacted about this request']));
		return body;
	};

	it('its test form says nothing is sent by default, the run ends in "Dry run: nothing sent" saying how to send, and nothing is written', async () => {
		const example = JSON.parse(readFileSync(path.join(repoRoot, 'examples', 'lead-capture-form.json'), 'utf8')) as WorkflowJson;
		const workflow = await e2e.client.createWorkflow(
			bindWorkflow(example, { credential: savedBefore, routineId: e2e.sandbox.control.routines()[0].id }),
		);
		const started = await e2e.client.runManually(workflow.id, 'Lead form');
		expect(started.waitingForWebhook).toBe(true);
		const testUrl = formUrl(e2e.n8n.url, example, 'Lead form').replace('/form/', '/form-test/');
		const page = await (await fetch(testUrl)).text();
		expect(page).toContain('Test run from the editor');
		expect(page).not.toContain(THANKS);

		const email = `teste.${randomUUID().slice(0, 8)}@example.com`;
		const answer = await fetch(testUrl, { method: 'POST', body: form({ name: 'Teo Teste', email }) });
		expect(answer.status).toBe(200);
		const [summary] = await e2e.client.waitForExecutions(workflow.id, 1, 60_000);
		const execution = await e2e.client.waitForExecution(summary.id);
		expect(execution.mode).toBe('manual');
		expect(execution.status).toBe('success');
		expect(writes()).toEqual([]);
		expect(nodeOutput(execution, 'Create lead')[0]).toMatchObject({ dryRun: true, written: false });
		const [note] = nodeOutput(execution, 'Dry run: nothing sent');
		expect(String(note?.message)).toMatch(/^A run from the editor: Create lead was a dry run, so nothing was sent/);
		expect(String(note?.message)).toMatch(/publish the workflow .* Production URL; to send from the editor too, set the credential's Writes in Manual Runs to Send to Production/);
		expectNoKey(execution);

		// Published, the same form thanks the visitor and writes.
		await e2e.client.activateWorkflow(workflow.id, workflow.versionId);
		try {
			const production = await (await fetch(formUrl(e2e.n8n.url, example, 'Lead form'))).text();
			expect(production).toContain(THANKS);
			expect(production).not.toContain('Test run from the editor');
		} finally {
			await e2e.client.deactivateWorkflow(workflow.id);
		}
	});
});
