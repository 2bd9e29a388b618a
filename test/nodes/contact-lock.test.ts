/**
 * Lead Create holds a lead's contacts from its search to its decision, one create at a time per contact in this
 * n8n process: a form posted twice at once gives one lead. A Stop releases them and leaves the contact in doubt for
 * the lost-lead window; the turn's own rules are in test/writes/write-memory.test.ts.
 */
import { allLogLines } from '../../dev/harness';
import { runNode } from './support';
import type { PlannedRequest } from '../../sandbox';
import { useSandbox } from '../support/sandbox';
import { faultsAfter } from '../support/service-faults';

const { sandbox, connection } = useSandbox({ rateLimit: false, dataset: { leads: 3 } });
const isCreate = ({ method, path }: PlannedRequest) => method === 'POST' && path === '/api/v1/leads';

describe('the contact lock of Skip If Exists, under a Stop', () => {
	const leadsOf = (email: string) => sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));
	const form = (email: string) => ({
		resource: 'lead',
		operation: 'create',
		name: 'Paula Parada',
		email,
		options: { skipIfExists: true, lostLeadSearch: 1 },
	});

	/** Runs the form through n8n's engine and stops the execution once `ready` holds. */
	async function runAndStopForm(email: string, ready: () => boolean, what: string, continueOnFail = false) {
		const run = await runNode(form(email), { ...connection, continueOnFail, stop: { when: ready, what } });
		return { run, warnings: run.logs.filter((line) => line.startsWith('[warn]')).join('\n') };
	}

	it('a Stop while the lost lead is looked for, its search being retried past the window: the log names the contact, the next form within the window sends nothing, one after it creates', async () => {
		const email = 'paula.parada@example.com';
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'], pathPrefix: '/leads' });
		// Once the create is lost, the service fails the searches for a while: the one search is retried, the window ends.
		faultsAfter(sandbox.control, isCreate, ({ method, path }) => method === 'GET' && path === '/api/v1/leads', { kind: 'status', status: 503, count: 4 });
		// Stop while the search waits 2.4 s before its 5th attempt, the window over (the node's debug line says so).
		const { warnings } = await runAndStopForm(email, () => allLogLines.some((line) => line.includes('GET /leads failed (status 503); retry 4 in 2400 ms')), 'retried a 4th time');
		expect(warnings).toContain(
			`Prospecting: the lead for ${email} may exist: its create's answer was lost and the execution was stopped while looking for it (1 searches)`,
		);
		expect(sandbox.control.requests().filter((request) => request.query.search === email)).toHaveLength(5);
		expect(leadsOf(email)).toEqual([]);

		// The stopped create may still be committed: for the window, a form for the contact looks for it and sends nothing.
		const within = await runNode(form(email), { ...connection, continueOnFail: true });
		expect(within.items.map((item) => item.json.writeOutcome)).toEqual(['unknown']);
		expect(sandbox.control.requests().filter((request) => request.method === 'POST')).toHaveLength(1);
		await new Promise((resolve) => setTimeout(resolve, 1100));
		const after = await runNode(form(email), connection);
		expect(after.items.map((item) => item.json.leadOutcome)).toEqual(['created']);
		expect(leadsOf(email)).toHaveLength(1);
	}, 20_000);

	it('a Stop while the create waits out a 429 applied nothing: the next form for the contact creates its lead at once', async () => {
		const email = 'paula.espera@example.com';
		// The service refuses the create and asks for 5 s; the Stop comes 0.3 s into that wait.
		sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 5, methods: ['POST'], pathPrefix: '/leads' });
		const refusedAt = () => Date.parse(sandbox.control.requests().find((request) => request.status === 429)?.at ?? '');
		const stopped = await runNode({ ...form(email), options: { skipIfExists: true, lostLeadSearch: 10 } }, {
			...connection,
			stop: { when: () => Date.now() - refusedAt() >= 300, what: 'waited 0.3 s of the 429' },
		});
		// Stopped before its create went again: the one create the service saw is the refused one.
		expect({ stopped: `${stopped.run.status}: ${stopped.error?.message ?? ''}`, creates: sandbox.control.requests().filter(isCreate).length }).toEqual({
			stopped: expect.stringMatching(/cancel/) as string,
			creates: 1,
		});
		const next = await runNode({ ...form(email), options: { skipIfExists: true, lostLeadSearch: 10 } }, connection);
		expect({ outcome: next.items.map((item) => item.json.leadOutcome), leads: leadsOf(email).length }).toEqual({ outcome: ['created'], leads: 1 });
	}, 30_000);

	/**
	 * The create for `email` is lost, then every answer takes 0.8 s, so the window's three searches (0.3, 0.5 and 1 s)
	 * run back to back; the Stop comes 0.2 s after Skip If Exists' search and the window's second are answered, with
	 * the third, the window's last, on its way.
	 */
	async function stopDuringTheLastSearch(email: string, continueOnFail = false) {
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'], pathPrefix: '/leads' });
		faultsAfter(sandbox.control, isCreate, () => true, { kind: 'latency', ms: 800 });
		const searched = () => sandbox.control.requests().filter((request) => request.query.search === email).length;
		// The sandbox records an answer as it sends it: 0.2 s later the node has surely sent the last search, which
		// is then answered 0.6 s after the Stop.
		let secondAnsweredAt: number | undefined;
		const lastOnItsWay = () => {
			if (searched() === 3) secondAnsweredAt ??= Date.now();
			return secondAnsweredAt !== undefined && Date.now() - secondAnsweredAt >= 200;
		};
		try {
			return await runAndStopForm(email, lastOnItsWay, "answered the window's second search", continueOnFail);
		} finally {
			sandbox.control.clearFaults();
			sandbox.control.planFaults(undefined);
		}
	}

	it('a Stop while the last search of the window is on its way: the log still names the contact whose lead may exist', async () => {
		const email = 'paulo.parado@example.com';
		const { run, warnings } = await stopDuringTheLastSearch(email);
		expect(warnings).toContain(`Prospecting: the lead for ${email} may exist: its create's answer was lost and the execution was stopped while looking for it (3 searches)`);
		// Marked cancelled, as a Stop between searches is, not failed by the search the Stop cut off.
		expect(run.run.status).toBe('canceled');
		expect(leadsOf(email)).toEqual([]);
	}, 20_000);

	it('under Continue On Fail, a Stop during the last search still stops the run: no error item goes on for the contact', async () => {
		const email = 'paula.continua@example.com';
		const { run, warnings } = await stopDuringTheLastSearch(email, true);
		expect(warnings).toContain(`Prospecting: the lead for ${email} may exist`);
		expect({ status: run.run.status, items: run.items }).toEqual({ status: 'canceled', items: [] });
	}, 20_000);
});
