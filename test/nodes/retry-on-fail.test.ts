/**
 * n8n's Retry On Fail (node Settings) runs the whole node again, every item, in the same execution: Lead Create
 * never sends a create twice. An item whose create was confirmed returns its recorded lead; one whose outcome stayed
 * unknown searches again and otherwise ends "may exist". The engine is n8n's own (dev/harness); the sandbox fails
 * the 3rd of 5 creates.
 */
import type { IDataObject } from 'n8n-workflow';

import { outcomeOf } from '../../nodes/Prospecting/helpers/outcome';
import { jsonOf, runNode } from './support';
import { useSandbox } from '../support/sandbox';
import { faultOnNthCreate } from '../support/service-faults';

const { sandbox, connection } = useSandbox({ readLimit: 100_000, writeLimit: 100_000, dataset: { leads: 5 } });
/** With n8n's Retry On Fail on: 3 tries, 10 ms apart. */
const retrying = (inputItems: IDataObject[]) => ({ ...connection, maxTries: 3, waitBetweenTries: 10, inputItems });

const people = (tag: string): IDataObject[] =>
	[1, 2, 3, 4, 5].map((n) => ({ name: `Pessoa ${n} ${tag}`, email: `pessoa${n}.${tag}@example.com` }));

const createFromInput = (options: IDataObject = {}) => ({
	resource: 'lead',
	operation: 'create',
	name: '={{ $json.name }}',
	email: '={{ $json.email }}',
	options: { lostLeadSearch: 1, ...options },
});

const leadsOf = (email: string) =>
	sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));
const requests = (method: string, search?: string) =>
	sandbox.control
		.requests()
		.filter((request) => request.method === method && (search === undefined || request.query.search === search));

describe('Lead Create under Retry On Fail (3 tries), 5 creates', () => {
	it('the 3rd create answered 503 before its commit: no contact gets two leads, the 3rd ends "may exist", and n8n did run the node again', async () => {
		faultOnNthCreate(sandbox.control, 3, { kind: 'status', status: 503, count: 1 });
		const input = people('antes');
		const run = await runNode(createFromInput(), retrying(input));

		expect(run.error?.message).toBe(
			`The lead for ${String(input[2].email)} may exist: the outcome of its create is unknown, and it was not sent again`,
		);
		expect(outcomeOf(run.error)).toBe('unknown');
		// Contacts 1-2 once each; the 3rd was answered 503 before its commit and not sent again; 4-5 were never reached.
		expect(input.map((person) => leadsOf(String(person.email)).length)).toEqual([1, 1, 0, 0, 0]);
		expect(requests('POST').map((request) => (request.status < 300 ? 'stored' : request.status))).toEqual(['stored', 'stored', 503]);
		// The first try searched over its window (3 searches for a 1 s window); each later try searched once more.
		expect(requests('GET', String(input[2].email))).toHaveLength(3 + 2);
		// The last try's error: what it knew of the first, for the 3rd item.
		const description = String((run.error as { description?: string }).description);
		expect(description.split('\n')[0]).toBe('Tried: an earlier try of this node (Retry On Fail) sent POST /leads; its outcome stayed unknown.');
		expect(description).toMatch(/\(item 2, POST \/leads\)$/);
	}, 30_000);

	it('a later try does not take an older lead with the same name and e-mail for the one the first try sent', async () => {
		const input = people('antigo');
		// The 3rd contact already had this very lead, made an hour before the run.
		sandbox.control.setCreatedAt(new Date(Date.now() - 60 * 60_000).toISOString());
		try {
			await fetch(`${sandbox.url}/api/v1/leads?apiKey=${connection.apiKey}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ name: input[2].name, emails: [{ value: input[2].email, label: 'Principal' }] }),
			});
			sandbox.control.setCreatedAt(null);
			const older = leadsOf(String(input[2].email));
			expect(older).toHaveLength(1);
			faultOnNthCreate(sandbox.control, 3, { kind: 'status', status: 503, count: 1 });
			const run = await runNode(createFromInput(), retrying(input));
			expect(run.error?.message).toMatch(/^The lead for pessoa3\.antigo@example\.com may exist/);
			expect(leadsOf(String(input[2].email))).toEqual(older);
		} finally {
			sandbox.control.setCreatedAt(null);
		}
	}, 30_000);

	it('the 3rd create answered 500 after its commit, its first searches failing: every contact has one lead, the 3rd found by the next try', async () => {
		faultOnNthCreate(sandbox.control, 3, { kind: 'status', status: 500, when: 'after-commit', count: 1 });
		// The first try's only search fails (5 answers: one call and its 4 read retries), so its item ends "may exist".
		sandbox.control.injectFault({ kind: 'status', status: 500, count: 5, methods: ['GET'] });
		const input = people('depois');
		const run = await runNode(createFromInput({ lostLeadSearch: 0 }), retrying(input));

		expect(run.error).toBeUndefined();
		expect(input.map((person) => leadsOf(String(person.email)).length)).toEqual([1, 1, 1, 1, 1]);
		expect(requests('POST')).toHaveLength(5);
		expect(jsonOf(run.items).map((lead) => lead.leadOutcome)).toEqual(['created', 'created', 'found', 'created', 'created']);
		expect(jsonOf(run.items).map((lead) => lead.id)).toEqual(input.map((person) => leadsOf(String(person.email))[0].id));
		// n8n ran the node again: after the first try's failed search, the second try's search found the lead.
		const searches = requests('GET', String(input[2].email));
		expect(searches.map((request) => request.status)).toEqual([500, 500, 500, 500, 500, 200]);
	}, 30_000);

	it('a confirmed create is returned as recorded on the next try, not sent again', async () => {
		// The 2nd item's input is refused by the service (400): n8n runs the node again, the 1st item is not resent.
		const input = [{ name: 'Primeira', email: 'primeira.retry@example.com' }, { name: 'Segunda', email: 'not-an-email' }];
		const run = await runNode(createFromInput(), retrying(input));
		expect(run.error?.message).toMatch(/not a valid email address/);
		expect(leadsOf('primeira.retry@example.com')).toHaveLength(1);
		expect(requests('POST')).toHaveLength(1);
	}, 30_000);
});
