/**
 * Skip If Exists after a create that ended "may exist": the service may still commit that lead, so for one more
 * lost-lead window this n8n process does not create another lead for the contact; a later execution searches and,
 * finding nothing, ends "may exist" too. Also for an execution that waited on the contact's lock while the first one
 * ended "may exist". Queue-mode workers do not share this (each process keeps its own).
 */
import { jsonOf, runNode } from './support';
import { useSandbox } from '../support/sandbox';

const { sandbox, connection } = useSandbox({ readLimit: 100_000, writeLimit: 100_000, dataset: { leads: 5 } });

const WINDOW_SECONDS = 1;
/** Well past the window and the second window after it: no search of either can see the lead. */
const COMMIT_AFTER_MS = 4000;

const post = (email: string) =>
	runNode(
		{
			resource: 'lead',
			operation: 'create',
			name: 'Dúvida',
			email,
			options: { skipIfExists: true, lostLeadSearch: WINDOW_SECONDS, timeout: 1 },
		},
		{ ...connection, continueOnFail: true },
	);

const leadsOf = (email: string) =>
	sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));
const posts = () => sandbox.control.requests().filter((request) => request.method === 'POST').length;
const wait = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

describe('Lead Create, Skip If Exists, a contact in doubt', () => {
	it('a later execution for a contact whose create ended "may exist" searches and ends "may exist" too, sending nothing', async () => {
		const email = 'duvida.depois@example.com';
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		const first = await post(email);
		expect(jsonOf(first.items)[0].error).toMatch(/may exist/);

		const later = await post(email);

		const [item] = jsonOf(later.items);
		expect(item.error).toBe(`The lead for ${email} may exist: the outcome of its create is unknown, and it was not sent again`);
		expect(item.writeOutcome).toBe('unknown');
		const description = String(item.description);
		const [, agoSeconds, moreSeconds] =
			/an earlier execution in this n8n sent POST \/leads for duvida\.depois@example\.com (\d+) s ago; its outcome is unknown, so this one did not send, and the contact stays in doubt for (\d+) s more\./.exec(description) ?? [];
		expect(description).toMatch(/^1 search over 0 s \(GET \/leads\?search=duvida\.depois@example\.com\) found no lead this create sent/m);
		// The first create went out about one window (1 s) before, and its contact is in doubt for at most one more.
		expect(Number(agoSeconds)).toBeLessThanOrEqual(WINDOW_SECONDS + 5);
		expect(Number(moreSeconds)).toBeGreaterThanOrEqual(1);
		expect(Number(moreSeconds)).toBeLessThanOrEqual(WINDOW_SECONDS);
		expect(posts()).toBe(1);
	}, 20_000);

	it('a contact given by phone is in doubt the same way, in any punctuation; another number is not', async () => {
		const byPhone = (phone: string) =>
			runNode(
				{ resource: 'lead', operation: 'create', name: 'Dúvida', phone, options: { skipIfExists: true, lostLeadSearch: WINDOW_SECONDS, timeout: 1 } },
				{ ...connection, continueOnFail: true },
			);
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		expect(jsonOf((await byPhone('(11) 4000-1234')).items)[0].error).toMatch(/may exist/);

		const same = jsonOf((await byPhone('11 4000 1234')).items)[0];
		const other = jsonOf((await byPhone('(11) 4000-9999')).items)[0];

		expect([same.writeOutcome, other.leadOutcome]).toEqual(['unknown', 'created']);
		expect(posts()).toBe(2);
	}, 20_000);

	it('one more window later the contact is no longer in doubt: the next execution creates the lead', async () => {
		const email = 'duvida.passou@example.com';
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		await post(email);
		await wait(WINDOW_SECONDS * 1000 + 200);

		const later = await post(email);

		expect(jsonOf(later.items)).toEqual([expect.objectContaining({ id: leadsOf(email)[0].id, leadOutcome: 'created' })]);
		expect(posts()).toBe(2);
	}, 20_000);

	/** A create without Skip If Exists whose answer is lost and which looks for its lead for 3 s. */
	const plainCreate = (email: string) =>
		runNode({ resource: 'lead', operation: 'create', name: 'Dúvida', email, options: { lostLeadSearch: 3, timeout: 1 } }, { ...connection, continueOnFail: true });
	const laterForm = (email: string) =>
		runNode({ resource: 'lead', operation: 'create', name: 'Dúvida', email, options: { skipIfExists: true, lostLeadSearch: 3, timeout: 1 } }, { ...connection, continueOnFail: true });

	it('a later form that meets a create still looking for its lost lead looks on with it, and both return that lead once committed', async () => {
		const email = 'duvida.achada@example.com';
		// The first create times out after 1 s and is committed 2 s after it was sent, within its 3 s look.
		sandbox.control.injectFault({ kind: 'slow-commit', commitAfterMs: 2000, count: 1, methods: ['POST'] });
		const first = plainCreate(email);
		// The later form comes 1.5 s in: nothing committed yet, and the contact in doubt.
		await wait(1500);
		const later = jsonOf((await laterForm(email)).items)[0];
		const earlier = jsonOf((await first).items)[0];
		expect({ first: earlier.leadOutcome, later: later.leadOutcome, id: later.id, leads: leadsOf(email).map((lead) => lead.id) }).toEqual({
			first: 'found',
			later: 'found',
			id: earlier.id,
			leads: [earlier.id],
		});
	}, 30_000);

	it('a later form that meets a create still looking says so when neither finds the lead', async () => {
		const email = 'duvida.ainda@example.com';
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		const first = plainCreate(email);
		await wait(1500);
		const later = jsonOf((await laterForm(email)).items)[0];
		await first;
		expect(String(later.description)).toMatch(/its outcome is unknown, so this one did not send, and the contact stays in doubt while that create still looks for its lead\./);
		expect(posts()).toBe(1);
	}, 30_000);

	it('an execution that waited on the contact while the first ended "may exist" does not create a second lead', async () => {
		const email = 'duvida.junto@example.com';
		// The first create times out (1 s) and is committed after both windows: no search can see it in time.
		sandbox.control.injectFault({ kind: 'slow-commit', commitAfterMs: COMMIT_AFTER_MS, count: 1, methods: ['POST'] });
		const [first, second] = await Promise.all([post(email), post(email)]);

		expect(jsonOf(first.items)[0].error).toMatch(/may exist/);
		expect(jsonOf(second.items)[0].error).toMatch(/may exist/);
		expect(posts()).toBe(0);
		await wait(COMMIT_AFTER_MS);
		expect(leadsOf(email)).toHaveLength(1);
		// The slow create is recorded once the service answers it.
		expect(posts()).toBe(1);
	}, 30_000);
});
