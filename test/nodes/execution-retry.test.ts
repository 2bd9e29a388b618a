/**
 * Retry from n8n's executions list starts a new execution in mode 'retry' that runs the failed node again with
 * every item it had, also those whose lead the failed execution created. Lead Create looks before sending: a lead
 * matching every field sent is returned with outcome 'found' and nothing is sent.
 */
import { jsonOf, runNode } from './support';
import { useSandbox } from '../support/sandbox';

const { sandbox, connection } = useSandbox({ readLimit: 100_000, writeLimit: 100_000, dataset: { leads: 5 } });

const leadsOf = (email: string) =>
	sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));
const posts = () => sandbox.control.requests().filter((request) => request.method === 'POST').length;

const lead = (email: string, name = 'Helena Retry', company = 'Retry Ltda') => ({
	resource: 'lead',
	operation: 'create',
	name,
	company,
	email,
});

describe('Lead Create in a retried execution', () => {
	it('a lead the failed execution created, matching every field sent, is returned as found and nothing is sent', async () => {
		const email = 'helena.retry@example.com';
		const first = await runNode(lead(email), { ...connection, mode: 'trigger' });
		expect(first.items[0].json).toEqual(expect.objectContaining({ leadOutcome: 'created' }));
		const before = posts();

		const retried = await runNode(lead(email), { ...connection, mode: 'retry' });

		expect(retried.error).toBeUndefined();
		expect(jsonOf(retried.items)).toEqual([expect.objectContaining({ id: first.items[0].json.id, leadOutcome: 'found' })]);
		expect(posts()).toBe(before);
		expect(leadsOf(email)).toHaveLength(1);
	});

	it('two leads match every field sent (made twice before): the newer is taken for the failed execution\'s, nothing is sent', async () => {
		const email = 'helena.duas@example.com';
		await runNode(lead(email), { ...connection, mode: 'trigger' });
		const newer = await runNode(lead(email), { ...connection, mode: 'trigger' });
		const before = posts();
		const retried = await runNode(lead(email), { ...connection, mode: 'retry' });
		expect(jsonOf(retried.items)).toEqual([expect.objectContaining({ id: newer.items[0].json.id, leadOutcome: 'found' })]);
		expect(posts()).toBe(before);
	});

	it('on Always Dry Run, a lead the failed execution created is what the dry run says it would return; nothing is sent', async () => {
		const email = 'helena.ensaio@example.com';
		const first = await runNode(lead(email), { ...connection, mode: 'trigger' });
		const before = posts();
		const retried = await runNode({ ...lead(email), dryRun: 'always' }, { ...connection, mode: 'retry' });
		expect(retried.error).toBeUndefined();
		expect(retried.items[0].json).toEqual(expect.objectContaining({ dryRun: true, wouldReturn: expect.objectContaining({ id: first.items[0].json.id }) }));
		expect(posts()).toBe(before);
	});

	it('no such lead yet: the retry searches, then creates it once', async () => {
		const email = 'novo.retry@example.com';
		const retried = await runNode(lead(email), { ...connection, mode: 'retry' });
		expect(retried.error).toBeUndefined();
		expect(jsonOf(retried.items)).toEqual([expect.objectContaining({ id: leadsOf(email)[0].id, leadOutcome: 'created' })]);
		const calls = sandbox.control.requests().map((request) => `${request.method} ${request.path}`);
		expect(calls).toEqual(['GET /api/v1/leads', 'POST /api/v1/leads']);
	});

	it('a lead with the same e-mail but another name is not taken for it: the retry creates the lead', async () => {
		const email = 'homonimo.retry@example.com';
		await runNode(lead(email, 'Outra Pessoa'), { ...connection, mode: 'trigger' });
		const retried = await runNode(lead(email), { ...connection, mode: 'retry' });
		expect(jsonOf(retried.items)).toEqual([expect.objectContaining({ name: 'Helena Retry', leadOutcome: 'created' })]);
		expect(leadsOf(email)).toHaveLength(2);
	});

	it('when the search before sending fails, nothing is sent and the item says so with outcome notSent', async () => {
		const email = 'busca.retry@example.com';
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 5, methods: ['GET'] });
		const retried = await runNode(lead(email), { ...connection, mode: 'retry', continueOnFail: true });
		expect(jsonOf(retried.items)).toEqual([expect.objectContaining({ writeOutcome: 'notSent', error: 'The service failed to process the request (503) after 5 attempts' })]);
		// Why the search failed as the service said, the call that failed, and what was not done and what to do.
		expect(String(retried.items[0].json.description).split('\n')).toEqual([
			expect.stringMatching(/.+/),
			'(item 0, GET /leads)',
			'The lead was not created: this execution retries a failed one, which may have created it, and the search for busca.retry@example.com (GET /leads) failed. Run this item again once the service answers.',
		]);
		expect(posts()).toBe(0);
	}, 20_000);

	it('a Stop while the search before sending is on its way ends the run as stopped: nothing is sent, no error item goes on', async () => {
		const email = 'parada.retry@example.com';
		// The search is the run's first call; its answer takes 3 s, and the Stop comes half a second in.
		sandbox.control.injectFault({ kind: 'latency', ms: 3000 });
		const startedAt = Date.now();
		try {
			const retried = await runNode(lead(email), {
				...connection,
				mode: 'retry',
				continueOnFail: true,
				stop: { when: () => Date.now() - startedAt >= 500, what: 'waited' },
			});
			expect({ status: retried.run.status, items: jsonOf(retried.items) }).toEqual({ status: 'canceled', items: [] });
		} finally {
			sandbox.control.clearFaults();
		}
		expect(posts()).toBe(0);
	}, 20_000);
});
