/**
 * A user's Stop in a real n8n: a 300-item Lead Create run from the editor (Execute workflow, with the credential's
 * "Writes in Manual Runs" on Send to Production) is stopped through n8n's own stop (POST /rest/executions/:id/stop,
 * what the editor's Stop button and the executions list call). The sandbox's request log counts the writes that
 * reached the service after n8n answered the stop: at most the one call in flight, and none once the run was
 * waiting for the rate-limit window, even after that window has turned. Stopped while looking for a lead whose
 * create's answer was lost, the run sends nothing more and n8n's log names the contact whose lead may exist.
 */
import { randomUUID } from 'node:crypto';

import type { ExecutionDetail, StoppedExecution, StoredWorkflow } from '../../scripts/lib/n8n-client';
import type { RecordedRequest } from '../../sandbox';
import { useE2eInstance } from './support/instance';
import { waitFor } from './support/waits';
import { chainWorkflow, MANUAL_TRIGGER, manualTrigger, prospectingNode } from './support/workflows';

jest.setTimeout(120_000);

const LEADS = 300;

const e2e = useE2eInstance();

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** Every Lead Create that reached the sandbox (recorded once answered, or dropped), in the order answered. */
const leadPosts = () => e2e.sandbox.control.requests().filter((request) => request.method === 'POST' && request.path === '/api/v1/leads');

/** A credential that sends writes from the editor, with the sandbox's rate-limit window. */
async function sendingCredential(windowSeconds: number, writesPerWindow: number) {
	return await e2e.client.createCredential(`Prospecting API (send, ${windowSeconds} s window) ${randomUUID().slice(0, 8)}`, 'prospectingApi', {
		baseUrl: e2e.sandbox.url,
		apiKey: e2e.sandbox.apiKey,
		manualWrites: 'send',
		rateLimitWindowSeconds: windowSeconds,
		writesPerWindow,
	});
}

/** Manual Trigger → Code (`count` leads, each with its own e-mail) → Prospecting Lead Create. */
async function saveLeadRun(
	tag: string,
	credential: { id: string; name: string },
	count = LEADS,
	options: Record<string, unknown> = {},
): Promise<StoredWorkflow> {
	const leads = {
		id: randomUUID(),
		name: `${count} leads`,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [0, 0] as [number, number],
		parameters: {
			jsCode: `return Array.from({ length: ${count} }, (_, i) => ({ json: { name: 'Stop Lead ' + i, email: 'stop.${tag}.' + i + '@example.com' } }));`,
		},
	};
	const create = prospectingNode('Create lead', {
		resource: 'lead',
		operation: 'create',
		name: '={{ $json.name }}',
		email: '={{ $json.email }}',
		additionalFields: {},
		options,
	});
	create.credentials = { prospectingApi: { id: credential.id, name: credential.name } };
	return await e2e.client.createWorkflow(chainWorkflow(`Stop ${tag}`, [manualTrigger(), leads, create]));
}

/** The editor's Execute workflow; gives back the execution's id. */
async function runFromEditor(workflow: StoredWorkflow): Promise<string> {
	const started = await e2e.client.runManually(workflow.id, MANUAL_TRIGGER);
	expect(started.executionId).toBeDefined();
	return String(started.executionId);
}

interface Stopped {
	answer: StoppedExecution;
	/** When n8n answered the stop (this machine's clock, as the sandbox's log). */
	answeredAt: number;
	/** Lead Creates answered by the sandbox when n8n answered the stop. */
	postsBefore: number;
}

async function stop(executionId: string): Promise<Stopped> {
	const answer = await e2e.client.stopExecution(executionId);
	const answeredAt = Date.now();
	return { answer, answeredAt, postsBefore: leadPosts().length };
}

/** A request as the failure message shows it: what, its answer, and when it arrived relative to the stop's answer. */
const described = (request: RecordedRequest, stopped: Stopped) =>
	`${request.method} ${request.path} -> ${request.dropped ? 'dropped' : request.status}, arrived ${Date.parse(request.at) - stopped.answeredAt} ms after the stop was answered`;

/** The leads the run created, by e-mail: each must exist once. */
function createdTwice(tag: string): string[] {
	const emails = e2e.sandbox.control
		.leads()
		.flatMap((lead) => lead.emails.map((email) => email.value))
		.filter((email) => email.startsWith(`stop.${tag}.`));
	return emails.filter((email, index) => emails.indexOf(email) !== index);
}

async function finished(executionId: string): Promise<ExecutionDetail> {
	return await e2e.client.waitForExecution(executionId, 30_000);
}

function trace(name: string, stopped: Stopped, after: RecordedRequest[], execution: ExecutionDetail): void {
	process.stderr.write(
		`[e2e stop] n8n ${e2e.runtime.n8nVersion}, ${name}: ${stopped.postsBefore} Lead Creates before the stop's answer ` +
			`(stop answered ${stopped.answer.status}), ${after.length} after${after.length ? `: ${after.map((r) => described(r, stopped)).join('; ')}` : ''}; ` +
			`execution ${execution.status}\n`,
	);
}

describe('Stop on a 300-item Lead Create run from the editor', () => {
	beforeEach(() => e2e.sandbox.control.reset());

	it('stopped while it writes, it sends at most the call in flight, and no lead twice', async () => {
		const windowSeconds = 5;
		e2e.sandbox.control.setRateLimit({ windowSeconds, writeLimit: 10 });
		// Each call takes a while, so the stop comes while a write is on its way.
		e2e.sandbox.control.injectFault({ kind: 'latency', ms: 400 });
		const tag = randomUUID().slice(0, 8);
		const executionId = await runFromEditor(await saveLeadRun(tag, await sendingCredential(windowSeconds, 10)));

		await waitFor('the run\'s first writes', () => leadPosts().length, (count) => count >= 3, 60_000);
		const stopped = await stop(executionId);
		// Two windows: a run that went on would have written again by then, its budget renewed.
		await sleep(2 * windowSeconds * 1000);
		const execution = await finished(executionId);
		const after = leadPosts().slice(stopped.postsBefore);
		trace('stopped while writing', stopped, after, execution);

		expect(execution.status).toBe('canceled');
		// At most the call in flight; more, and the failure lists every write after the stop with when it arrived.
		expect(after.length > 1 ? after.map((request) => described(request, stopped)) : []).toEqual([]);
		expect(createdTwice(tag)).toEqual([]);
		expect(leadPosts().length).toBeLessThan(LEADS);
	});

	it('stopped while it waits for the rate-limit window, it sends nothing more, even after the window has turned', async () => {
		const windowSeconds = 10;
		const writeLimit = 10;
		e2e.sandbox.control.setRateLimit({ windowSeconds, writeLimit });
		const tag = randomUUID().slice(0, 8);
		const executionId = await runFromEditor(await saveLeadRun(tag, await sendingCredential(windowSeconds, writeLimit)));

		// The window's writes are spent: the 10th is answered and the rest wait for the window to turn.
		await waitFor('the window\'s writes', () => leadPosts().length, (count) => count >= writeLimit, 60_000);
		await sleep(1000);
		const spent = leadPosts();
		expect(spent.map((request) => request.status)).toEqual(Array(writeLimit).fill(201));
		const stopped = await stop(executionId);
		// Past the end of the window the sandbox opened at the first write, and three seconds more.
		const windowEnd = Date.parse(spent[0].at) + windowSeconds * 1000;
		await sleep(Math.max(0, windowEnd - Date.now()) + 3000);
		const execution = await finished(executionId);
		const after = leadPosts().slice(stopped.postsBefore);
		trace('stopped while waiting for the window', stopped, after, execution);

		expect(execution.status).toBe('canceled');
		expect(after.map((request) => described(request, stopped))).toEqual([]);
		expect(createdTwice(tag)).toEqual([]);
	});
});

describe('Stop while Lead Create looks for a lead whose answer was lost', () => {
	beforeEach(() => e2e.sandbox.control.reset());

	it('stopped during the search: nothing more is sent, and n8n\'s log names the contact whose lead may exist', async () => {
		e2e.sandbox.control.setRateLimit({ windowSeconds: 60, writeLimit: 100 });
		// The create's connection is closed before the service stores it: its outcome is unknown, the node looks for 60 s.
		e2e.sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'], pathPrefix: '/leads' });
		const tag = randomUUID().slice(0, 8);
		const email = `stop.${tag}.0@example.com`;
		const searches = () => e2e.sandbox.control.requests().filter((request) => request.method === 'GET' && request.query.search === email);
		const workflow = await saveLeadRun(tag, await sendingCredential(60, 100), 1, { timeout: 2, lostLeadSearch: 60 });
		const executionId = await runFromEditor(workflow);

		await waitFor('the first search for the lost lead', () => searches().length, (count) => count >= 1, 30_000);
		const stopped = await stop(executionId);
		const searchesAtStop = searches().length;
		const execution = await finished(executionId);
		await sleep(2000);
		const after = leadPosts().slice(stopped.postsBefore);
		trace('stopped while looking for a lost lead', stopped, after, execution);
		// What the execution view has to show (reported in the write table's notes).
		const view = {
			status: execution.status,
			error: execution.data.resultData.error?.message,
			nodeRan: execution.data.resultData.runData['Create lead'] !== undefined,
		};
		process.stderr.write(`[e2e stop] n8n ${e2e.runtime.n8nVersion}, execution view after Stop during the search: ${JSON.stringify(view)}\n`);

		expect(execution.status).toBe('canceled');
		expect(after).toEqual([]);
		expect(leadPosts()).toHaveLength(1);
		expect(searches().length).toBeLessThanOrEqual(searchesAtStop + 1);
		expect(e2e.sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email))).toEqual([]);
		await waitFor('the warning in n8n\'s log', () => e2e.n8n.output(), (output) => output.includes(`the lead for ${email} may exist`), 10_000);
		expect(e2e.n8n.output()).toContain(
			`Prospecting: the lead for ${email} may exist: its create's answer was lost and the execution was stopped while looking for it`,
		);
	});
});
