/**
 * The n8n Cloud recipe of docs/installation.md walked as a Cloud user does it, in real n8n against the sandbox: a
 * Query Auth credential as the guide names it, the recipe imported from the file the guide names, its settings and
 * credential set, the workflow published, and the form sent by its production URL, to a lead in the routine. n8n
 * Cloud is n8n with n8n's own nodes: the recipe uses no node of this package (test/nodes/examples.test.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { nodeOutput, type StoredWorkflow, type WorkflowJson } from '../../scripts/lib/n8n-client';
import { formUrl } from '../../scripts/lib/instance-setup';
import { repoRoot } from '../../scripts/lib/provision';
import { useE2eInstance } from './support/instance';

jest.setTimeout(180_000);

const e2e = useE2eInstance();
let workflow: StoredWorkflow;
let recipe: WorkflowJson;

/** The guide's n8n Cloud section. */
const guide = (() => {
	const text = readFileSync(path.join(repoRoot, 'docs', 'installation.md'), 'utf8');
	const start = text.indexOf('\n## n8n Cloud');
	return text.slice(start, text.indexOf('\n## ', start + 1));
})();

const leadsWithEmail = (email: string) => e2e.sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));
const writes = () => e2e.sandbox.control.requests().filter((request) => request.kind === 'write');

/** Sends the form by its production URL, as a visitor's browser does, and returns the finished execution. */
async function sendForm(person: { name: string; company: string; email: string; phone?: string }) {
	const before = (await e2e.client.listExecutions(workflow.id)).length;
	const form = new FormData();
	form.append('field-0', person.name);
	form.append('field-1', person.company);
	form.append('field-2', person.email);
	form.append('field-3', person.phone ?? '');
	form.append('field-4', JSON.stringify(['I agree to be contacted about this request']));
	const answer = await fetch(formUrl(e2e.n8n.url, recipe, 'Lead form'), { method: 'POST', body: form });
	const [latest] = await e2e.client.waitForExecutions(workflow.id, before + 1, 60_000);
	return { answer, execution: await e2e.client.waitForExecution(latest.id) };
}

describe('the n8n Cloud recipe, step by step as the installation guide says', () => {
	test('step 1: a Query Auth credential whose Name is the one the guide gives, apiKey, with the key as its Value', async () => {
		const name = /\*\*Name\*\* `(\w+)`/.exec(guide)?.[1];
		expect(name).toBe('apiKey');
		const credential = await e2e.client.createCredential('Prospecting API key', 'httpQueryAuth', { name, value: e2e.sandbox.apiKey });
		expect(credential.type).toBe('httpQueryAuth');
	});

	test('steps 2-3: the file the guide names imports, with the credential picked and the settings set', async () => {
		const file = /`(examples\/n8n-cloud\/[\w-]+\.json)`/.exec(guide)?.[1];
		expect(file).toBeDefined();
		recipe = JSON.parse(readFileSync(path.join(repoRoot, file!), 'utf8')) as WorkflowJson;
		const [credential] = (await e2e.client.listCredentials()).filter((item) => item.type === 'httpQueryAuth');
		const routineId = e2e.sandbox.control.routines()[0].id;
		const bound = JSON.parse(JSON.stringify(recipe)) as WorkflowJson;
		for (const node of bound.nodes) {
			const credentials = node.credentials as Record<string, { id: string; name: string }> | undefined;
			if (credentials?.httpQueryAuth) credentials.httpQueryAuth = { id: credential.id, name: credential.name };
			if (node.name === 'Your settings') {
				const assignments = (node.parameters as { assignments: { assignments: Array<{ name: string; value: string }> } }).assignments.assignments;
				// The address as a user may paste it, with a trailing slash.
				for (const assignment of assignments) assignment.value = assignment.name === 'baseUrl' ? `${e2e.sandbox.url}/` : routineId;
			}
		}
		workflow = await e2e.client.createWorkflow(bound);
		expect(workflow.nodes.filter((node) => (node.credentials as Record<string, unknown> | undefined)?.httpQueryAuth)).toHaveLength(3);
	});

	test('step 4: published, the form sent by its production URL makes one lead, in the routine; the key is in no execution', async () => {
		await e2e.client.activateWorkflow(workflow.id, workflow.versionId, { wait: true });
		const person = { name: 'Clara Nuvem', company: 'Nuvem Ltda', email: `clara.${Date.now()}@example.com`, phone: '+55 11 93456-7890' };
		const { answer, execution } = await sendForm(person);
		expect(answer.status).toBe(200);
		expect(await answer.text()).not.toContain(person.company);
		expect(execution.status).toBe('success');
		const [lead] = leadsWithEmail(person.email);
		expect(lead).toEqual(
			expect.objectContaining({ name: person.name, company: person.company, routineIds: [e2e.sandbox.control.routines()[0].id] }),
		);
		expect(lead.phones.map((phone) => phone.value)).toEqual([person.phone]);
		expect(nodeOutput(execution, 'Create lead')).toEqual([expect.objectContaining({ id: lead.id })]);
		expect(execution.rawData.includes(e2e.sandbox.apiKey)).toBe(false);
	});

	test('the same person sent again: the search finds the lead, so nothing is created or added again', async () => {
		const person = { name: 'Davi Nuvem', company: 'Nuvem Ltda', email: `davi.${Date.now()}@example.com` };
		await sendForm(person);
		const writesBefore = writes().length;
		const { execution } = await sendForm({ ...person, name: 'Someone Else' });
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'New lead?', 0)).toEqual([]);
		expect(writes().length).toBe(writesBefore);
		expect(leadsWithEmail(person.email)).toEqual([expect.objectContaining({ name: person.name })]);
	});

	test('a refusal of the service (429) fails the execution, as the guide says, creates nothing, and shows no key', async () => {
		const email = `eva.${Date.now()}@example.com`;
		e2e.sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 1 });
		try {
			const { execution } = await sendForm({ name: 'Eva Nuvem', company: 'Nuvem Ltda', email });
			expect(execution.status).toBe('error');
			expect(execution.data.resultData.error?.message ?? '').not.toBe('');
			expect(execution.rawData.includes(e2e.sandbox.apiKey)).toBe(false);
		} finally {
			e2e.sandbox.control.clearFaults();
		}
		expect(guide).toMatch(/429, fails the execution/);
		expect(leadsWithEmail(email)).toEqual([]);
	});
});
