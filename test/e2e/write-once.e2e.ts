/**
 * Every create once, whatever n8n and the network do, in a real n8n (single process): n8n's Retry On Fail (node
 * Settings, 3 tries) over 5 creates when the 3rd meets a 503 before its commit, a 500 after it, or a slow commit
 * behind a gateway's 504; a proxy's 200 HTML page; a moved host's 301; and a create without a name lost for a contact
 * that has an older lead. The sandbox's request log shows what reached the service, n8n's re-runs included.
 *
 * Scale: an Answer Timeout of 2 s and a lost-lead search over 1 s (0 where the case needs a single search), with
 * 2 s between n8n's tries, so that every search of one try falls within a second and a gap of 2 s or more between
 * two searches for one contact is n8n running the node again.
 */
import { randomUUID } from 'node:crypto';

import { nodeOutput, type ExecutionDetail, type StoredWorkflow } from '../../scripts/lib/n8n-client';
import { webhookUrl } from '../../scripts/lib/instance-setup';
import type { RecordedRequest } from '../../sandbox';
import { faultOnNthCreate } from '../support/service-faults';
import { createActiveWorkflow } from './support/mcp';
import { useE2eInstance } from './support/instance';
import { chainWorkflow, prospectingNode, webhookTrigger } from './support/workflows';

jest.setTimeout(120_000);

const ANSWER_TIMEOUT_SECONDS = 2;
const WAIT_BETWEEN_TRIES_MS = 2000;

const e2e = useE2eInstance();
const workflows: Record<'retry' | 'retryOneSearch' | 'single', StoredWorkflow> = {} as never;

/**
 * Webhook ({ people: [...] }) → Split Out → Lead Create (version 2): with n8n's Retry On Fail (3 tries), or alone with
 * Continue On Fail so that the item's error is the answer.
 */
function createsWorkflow(name: string, path: string, credential: { id: string; name: string }, settings: { retry: boolean; lostLeadSearch: number }) {
	const split = {
		id: randomUUID(),
		name: 'People',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: { fieldToSplitOut: 'body.people', options: {} },
	};
	const create = prospectingNode('Lead Create', {
		resource: 'lead',
		operation: 'create',
		name: '={{ $json.name }}',
		email: '={{ $json.email }}',
		additionalFields: {},
		options: { timeout: ANSWER_TIMEOUT_SECONDS, lostLeadSearch: settings.lostLeadSearch },
	});
	create.typeVersion = 2;
	create.credentials = { prospectingApi: { id: credential.id, name: credential.name } };
	Object.assign(
		create,
		settings.retry ? { retryOnFail: true, maxTries: 3, waitBetweenTries: WAIT_BETWEEN_TRIES_MS } : { onError: 'continueRegularOutput' },
	);
	return chainWorkflow(name, [webhookTrigger(path), split, create]);
}

beforeAll(async () => {
	e2e.sandbox.control.setRateLimit({ writeLimit: 10_000, readLimit: 10_000 });
	const version = e2e.runtime.n8nVersion;
	const make = async (name: string, path: string, settings: { retry: boolean; lostLeadSearch: number }) =>
		await createActiveWorkflow(e2e.client, version, createsWorkflow(name, path, e2e.credential, settings));
	workflows.retry = await make('Write once, Retry On Fail', 'write-once-retry', { retry: true, lostLeadSearch: 1 });
	workflows.retryOneSearch = await make('Write once, Retry On Fail, one search', 'write-once-retry-0', { retry: true, lostLeadSearch: 0 });
	workflows.single = await make('Write once, Continue On Fail', 'write-once-single', { retry: false, lostLeadSearch: 1 });
}, 300_000);

beforeEach(() => {
	e2e.sandbox.control.clearFaults();
	e2e.sandbox.control.planFaults(undefined);
});

interface Person {
	name: string;
	email: string;
}

const people = (tag: string): Person[] => [1, 2, 3, 4, 5].map((n) => ({ name: `Pessoa ${n} ${tag}`, email: `pessoa${n}.${tag}.${Date.now()}@example.com` }));
const leadsOf = (email: string) => e2e.sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));
const requestsSince = (from: number) => e2e.sandbox.control.requests().slice(from);
const creates = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/leads');
const searchesFor = (requests: RecordedRequest[], email: string) => requests.filter((r) => r.method === 'GET' && r.query.search === email);

/** How many tries of the node searched for a contact: its searches, split where 2 s or more passed between two. */
function triesThatSearched(searches: RecordedRequest[]): number {
	const times = searches.map((request) => Date.parse(request.at));
	return times.filter((at, index) => index === 0 || at - times[index - 1] >= WAIT_BETWEEN_TRIES_MS * 0.9).length;
}

/** Posts the people to the workflow's webhook and gives back its finished execution. */
async function run(workflow: StoredWorkflow, body: { people: Array<Partial<Person>> }): Promise<ExecutionDetail> {
	const before = (await e2e.client.listExecutions(workflow.id)).length;
	await fetch(webhookUrl(e2e.n8n.url, workflow, 'Webhook'), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const [latest] = (await e2e.client.waitForExecutions(workflow.id, before + 1, 60_000)).sort((a, b) => Number(b.id) - Number(a.id));
	return await e2e.client.getExecution(latest.id);
}

const outputOf = (execution: ExecutionDetail) => nodeOutput(execution, 'Lead Create');
const errorOf = (execution: ExecutionDetail) => execution.data.resultData.error as { message?: string; context?: { writeOutcome?: string } } | undefined;

function trace(name: string, requests: RecordedRequest[]): void {
	const lines = requests.map((r) => `${r.at.slice(11, 23)} ${r.method} ${r.path}${r.query.search ? `?search=${String(r.query.search)}` : ''} -> ${r.dropped ? 'dropped' : r.status}`);
	process.stderr.write(`[e2e write-once] n8n ${e2e.runtime.n8nVersion}, ${name}:\n  ${lines.join('\n  ')}\n`);
}

describe('Lead Create under n8n\'s Retry On Fail (3 tries), 5 creates, in a real n8n', () => {
	test('the 3rd create answered 503 before its commit: no contact twice, the 3rd ends "may exist", and n8n did run the node again', async () => {
		const input = people('antes');
		faultOnNthCreate(e2e.sandbox.control, 3, { kind: 'status', status: 503, count: 1 });
		const from = e2e.sandbox.control.requests().length;

		const execution = await run(workflows.retry, { people: input });

		const requests = requestsSince(from);
		trace('503 before commit', requests);
		expect(execution.status).toBe('error');
		expect(errorOf(execution)?.message).toBe(
			`The lead for ${input[2].email} may exist: the outcome of its create is unknown, and it was not sent again`,
		);
		// Contacts 1-2 once each; the 3rd was answered 503 and never sent again; 4-5 never reached (their item failed with the run).
		expect(input.map((person) => leadsOf(person.email).length)).toEqual([1, 1, 0, 0, 0]);
		expect(creates(requests).map((request) => (request.status < 300 ? 'stored' : request.status))).toEqual(['stored', 'stored', 503]);
		// n8n ran the node three times: each try looked for the 3rd contact's lead, none sent it again.
		expect(triesThatSearched(searchesFor(requests, input[2].email))).toBe(3);
	});

	test('the 3rd create answered 500 after its commit, its first search failing: every contact has one lead, the 3rd found by a later try', async () => {
		const input = people('depois');
		faultOnNthCreate(e2e.sandbox.control, 3, () => {
			// The first try's one search fails (the call and its 4 read retries): its item ends "may exist", n8n tries again.
			e2e.sandbox.control.injectFault({ kind: 'status', status: 500, count: 5, methods: ['GET'], pathPrefix: '/leads' });
			return { kind: 'status', status: 500, count: 1, when: 'after-commit' };
		});
		const from = e2e.sandbox.control.requests().length;

		const execution = await run(workflows.retryOneSearch, { people: input });

		const requests = requestsSince(from);
		trace('500 after commit', requests);
		expect(errorOf(execution)?.message).toBeUndefined();
		expect(execution.status).toBe('success');
		expect(input.map((person) => leadsOf(person.email).length)).toEqual([1, 1, 1, 1, 1]);
		expect(creates(requests)).toHaveLength(5);
		const output = outputOf(execution);
		expect(output.map((lead) => lead.leadOutcome)).toEqual(['created', 'created', 'found', 'created', 'created']);
		expect(output.map((lead) => lead.id)).toEqual(input.map((person) => leadsOf(person.email)[0].id));
		// n8n ran the node again: with a search window of 0 a try searches once (the call and its 4 read retries, all
		// 500 here); the 6th search, which found the lead, is the next try's.
		const searches = searchesFor(requests, input[2].email);
		expect(searches.map((request) => request.status)).toEqual([500, 500, 500, 500, 500, 200]);
	});

	test('the 3rd create held by a slow commit behind a gateway\'s 504: every contact has one lead, the 3rd found by a later try', async () => {
		const input = people('lenta');
		faultOnNthCreate(e2e.sandbox.control, 3, { kind: 'slow-commit', commitAfterMs: 3000, gatewayTimeoutMs: 300, count: 1 });
		const from = e2e.sandbox.control.requests().length;

		const execution = await run(workflows.retry, { people: input });

		const requests = requestsSince(from);
		trace('slow commit behind a 504', requests);
		expect(errorOf(execution)?.message).toBeUndefined();
		expect(input.map((person) => leadsOf(person.email).length)).toEqual([1, 1, 1, 1, 1]);
		expect(creates(requests)).toHaveLength(5);
		const output = outputOf(execution);
		expect(output.map((lead) => lead.leadOutcome)).toEqual(['created', 'created', 'found', 'created', 'created']);
		expect(output.map((lead) => lead.id)).toEqual(input.map((person) => leadsOf(person.email)[0].id));
		// The first try's searches (over 1 s, before the commit at 3 s) missed it; a later try of n8n's found it.
		expect(triesThatSearched(searchesFor(requests, input[2].email))).toBeGreaterThanOrEqual(2);
	});
});

describe('Lead Create answered by something other than the service, in a real n8n', () => {
	test('a 200 HTML page from a proxy: the item fails as unknown, nothing reported created', async () => {
		const [person] = people('html');
		e2e.sandbox.control.injectFault({ kind: 'malformed', count: 1, methods: ['POST'], pathPrefix: '/leads' });
		const from = e2e.sandbox.control.requests().length;

		const execution = await run(workflows.single, { people: [person] });

		trace('200 HTML page', requestsSince(from));
		const [item] = outputOf(execution);
		expect(item.id).toBeUndefined();
		expect(item.writeOutcome).toBe('unknown');
		expect(String(item.error)).toMatch(new RegExp(`^The lead for ${person.email.replace(/\./g, '\\.')} may exist: `));
		expect(String(item.error)).not.toMatch(/<html|<!doctype/i);
		expect(leadsOf(person.email)).toEqual([]);
		expect(creates(requestsSince(from))).toHaveLength(1);
	});

	test('a 301 from a moved host: the item fails naming the redirect, which is not followed', async () => {
		const [person] = people('moved');
		const location = 'https://moved.example.com/api/v1/leads';
		e2e.sandbox.control.injectFault({ kind: 'redirect', status: 301, location, count: 1, methods: ['POST'], pathPrefix: '/leads' });
		const from = e2e.sandbox.control.requests().length;

		const execution = await run(workflows.single, { people: [person] });

		const requests = requestsSince(from);
		trace('301', requests);
		const [item] = outputOf(execution);
		expect(item.id).toBeUndefined();
		expect(item.writeOutcome).toBe('refused');
		expect(String(item.error)).toContain('301');
		expect(String(item.error)).toContain('https://moved.example.com');
		expect(JSON.stringify(execution)).not.toContain(e2e.sandbox.apiKey);
		expect(leadsOf(person.email)).toEqual([]);
		// One call: the POST was neither followed as a GET nor sent again.
		expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /api/v1/leads']);
	});

	test('a create without a name lost before its commit, for a contact with an older lead: the older lead is not reported as created', async () => {
		const email = `antiga.${Date.now()}@example.com`;
		// Older: created yesterday (a lead created within the service clock's margin of the send, 1 s, cannot be told apart).
		e2e.sandbox.control.setCreatedAt(new Date(Date.now() - 24 * 3600 * 1000).toISOString());
		const older = await fetch(`${e2e.sandbox.url}/api/v1/leads?apiKey=${e2e.sandbox.apiKey}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'Lead Antiga', company: 'Antiga SA', emails: [{ value: email, label: 'Principal' }] }),
		});
		const olderLead = (await older.json()) as { id: string };
		e2e.sandbox.control.setCreatedAt(null);
		e2e.sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'], pathPrefix: '/leads' });
		const from = e2e.sandbox.control.requests().length;

		const execution = await run(workflows.single, { people: [{ email }] });

		const requests = requestsSince(from);
		trace('no name, lost, older lead', requests);
		const [item] = outputOf(execution);
		expect(item.id).toBeUndefined();
		expect(JSON.stringify(item)).not.toContain(olderLead.id);
		expect(item.writeOutcome).toBe('unknown');
		expect(String(item.error)).toMatch(new RegExp(`^The lead for ${email.replace(/\./g, '\\.')} may exist: `));
		// The searches saw the older lead and did not take it.
		expect(searchesFor(requests, email).length).toBeGreaterThan(0);
		expect(leadsOf(email).map((lead) => lead.id)).toEqual([olderLead.id]);
	});
});
