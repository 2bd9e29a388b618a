/** Lead creation when answers are lost: no duplicate, nothing missing, one output item per input. */
import { outcomeOf } from '../../nodes/Prospecting/helpers/outcome';
import { expectNoSecret, runNode, runNodeOnClock } from './support';
import { closedUrl } from '../support/closed-port';
import { useSandbox } from '../support/sandbox';

// Limits far above the bulk run: with the limiter off the sandbox still announces a spent budget, which the node obeys.
const { sandbox, connection } = useSandbox({ readLimit: 100_000, writeLimit: 100_000, dataset: { leads: 20 } });

const leadsWithEmail = (email: string) =>
	sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));
const posts = () => sandbox.control.requests().filter((request) => request.method === 'POST');

const createLead = (email: string, extra: Record<string, unknown> = {}) => ({
	resource: 'lead',
	operation: 'create',
	name: 'Joana Perdida',
	email,
	...extra,
});

it('returns the lead the service created when the answer was lost after the commit, without creating it twice', async () => {
	sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });
	const run = await runNode(createLead('joana.after@example.com'), connection);
	expect(run.error).toBeUndefined();
	const stored = leadsWithEmail('joana.after@example.com');
	expect(stored).toHaveLength(1);
	expect(run.items).toHaveLength(1);
	expect(run.items[0].json.id).toBe(stored[0].id);
	expect(posts()).toHaveLength(1);
	const searches = sandbox.control.requests().filter((request) => request.method === 'GET');
	expect(searches[0].query.search).toBe('joana.after@example.com');
	expectNoSecret(run, sandbox.apiKey);
});

it('a create dropped before the commit is not sent again: the searches find nothing and the item says the lead may exist', async () => {
	sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
	const run = await runNode(
		createLead('joana.before@example.com', { options: { lostLeadSearch: 1 } }),
		connection,
	);
	expect(run.error?.message).toBe(
		'The lead for joana.before@example.com may exist: the outcome of its create is unknown, and it was not sent again',
	);
	const description = String((run.error as { description?: string }).description);
	expect(description).toMatch(/^Tried: POST \/leads sent; its outcome is unknown \(The answer to POST \/leads was lost: the connection was reset\)\.$/m);
	// From the first search (0.3 s after the loss) to the last (1 s after it): 0.7 s, a little less or more when loaded.
	expect(description).toMatch(/^3 searches over 0\.[5-9] s \(GET \/leads\?search=joana\.before@example\.com\) found no lead this create sent \(one created since the send, with every field sent\)\.$/m);
	expect(description).toMatch(/^The service may still create it \(a slow service can apply a create long after its answer was lost\), and it does not refuse duplicates, so sending it again could make a second lead\.$/m);
	expect(description).toMatch(/Check before running this item again: search for joana\.before@example\.com/);
	expect(description).not.toMatch(/safe to run/);
	expect(description).toMatch(/\(item 0, POST \/leads\)$/);
	expect(leadsWithEmail('joana.before@example.com')).toHaveLength(0);
	// One send, then the searches of a 1 s window: at 0.3 s, 0.5 s and 1 s.
	expect(sandbox.control.requests().map((request) => request.method)).toEqual([
		'POST',
		'GET',
		'GET',
		'GET',
	]);
	expectNoSecret(run, sandbox.apiKey);
});

it('with Send Again If Not Found on, sends the lead once more after the searches over the window found nothing', async () => {
	sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
	const run = await runNode(
		createLead('joana.optin@example.com', {
			options: { lostLeadSearch: 1, retryWhenNotCreated: true },
		}),
		connection,
	);
	expect(run.error).toBeUndefined();
	expect(leadsWithEmail('joana.optin@example.com')).toHaveLength(1);
	expect(run.items[0].json.id).toBe(leadsWithEmail('joana.optin@example.com')[0].id);
	expect(sandbox.control.requests().map((request) => request.method)).toEqual([
		'POST',
		'GET',
		'GET',
		'GET',
		'POST',
	]);
});

it('with Send Again If Not Found on, a second lost create is not sent a third time: the item says both sends were tried', async () => {
	sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 2, methods: ['POST'] });
	const run = await runNode(
		createLead('joana.duas@example.com', { options: { lostLeadSearch: 0, retryWhenNotCreated: true } }),
		{ ...connection, continueOnFail: true },
	);
	expect(run.items[0].json.writeOutcome).toBe('unknown');
	const tried = String(run.items[0].json.description)
		.split('\n')
		.filter((line) => line.startsWith('Tried: '));
	expect(tried).toEqual([
		'Tried: POST /leads sent; its outcome is unknown (The answer to POST /leads was lost: the connection was reset).',
		'Tried: POST /leads sent again; its outcome is unknown (The answer to POST /leads was lost: the connection was reset).',
	]);
	expect(posts()).toHaveLength(2);
	expect(leadsWithEmail('joana.duas@example.com')).toHaveLength(0);
});

it('with Send Again If Not Found off, reports the lost create per item as a lead that may exist', async () => {
	sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
	const run = await runNode(
		createLead('joana.noretry@example.com', {
			options: { retryWhenNotCreated: false, lostLeadSearch: 0 },
		}),
		{ ...connection, continueOnFail: true },
	);
	expect(run.items[0].json.error).toBe(
		'The lead for joana.noretry@example.com may exist: the outcome of its create is unknown, and it was not sent again',
	);
	expect(String(run.items[0].json.description)).toMatch(
		/^1 search over 0 s \(GET \/leads\?search=joana\.noretry@example\.com\) found no lead this create sent \(one created since the send, with every field sent\)\.$/m,
	);
	expect(leadsWithEmail('joana.noretry@example.com')).toHaveLength(0);
	expect(posts()).toHaveLength(1);
});

it('with "Skip if a lead with this contact exists", returns the existing lead and creates nothing', async () => {
	const existing = sandbox.control.leads().filter((lead) => lead.emails.length > 0)[3];
	const email = existing.emails[0].value;
	const run = await runNode(
		{ resource: 'lead', operation: 'create', email, options: { skipIfExists: true } },
		connection,
	);
	expect(run.error).toBeUndefined();
	expect(run.items[0].json.id).toBe(existing.id);
	expect(run.items[0].json.leadOutcome).toBe('found');
	// Version 2 simplifies the lead, and still says it was found rather than created.
	const simplified = await runNode(
		{ resource: 'lead', operation: 'create', email, options: { skipIfExists: true } },
		{ ...connection, typeVersion: 2 },
	);
	expect(simplified.items.map((item) => [item.json.id, item.json.email, item.json.leadOutcome])).toEqual([[existing.id, email, 'found']]);
	// The service's default order is not documented: the search asks for the oldest lead first, so the oldest is taken.
	const searches = sandbox.control.requests().filter((request) => request.method === 'GET');
	expect(searches[0].query).toMatchObject({ search: email, orderBy: 'createdAt', orderDirection: 'asc' });
	expect(posts()).toHaveLength(0);
	expect(sandbox.control.leads()).toHaveLength(20);
});

it('a create answered 500 before its commit is not sent again: the searches find nothing and the item says the lead may exist', async () => {
	sandbox.control.injectFault({ kind: 'status', status: 500, count: 1, methods: ['POST'] });
	const run = await runNode(createLead('joana.500@example.com', { options: { lostLeadSearch: 1 } }), connection);
	expect(run.error?.message).toBe(
		'The lead for joana.500@example.com may exist: the outcome of its create is unknown, and it was not sent again',
	);
	expect(outcomeOf(run.error)).toBe('unknown');
	expect(posts()).toHaveLength(1);
	expect(leadsWithEmail('joana.500@example.com')).toHaveLength(0);
	// A 5xx now holds the item for the lost-lead search: n8n's log says so, and for how long.
	expect(run.logs).toContainEqual(
		expect.stringMatching(/^\[info\] Prospecting: the outcome of the create for joana\.500@example\.com is unknown \(.*500.*\); looking for its lead for up to 1 s before the item goes on \(item 0\)/),
	);
});

it('a create held by the rate limit past its maximum is not sent, and not tried again: its outcome is notSent', async () => {
	// The first create is refused with a 5 s Retry-After; the second would have to wait past its 1 s maximum.
	sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 5 });
	const run = await runNode(
		{ resource: 'lead', operation: 'create', name: '={{ $json.name }}', email: '={{ $json.email }}', options: { maxRateLimitWait: 1 } },
		{ ...connection, continueOnFail: true, inputItems: [{ name: 'A', email: 'a.rate@example.com' }, { name: 'B', email: 'b.rate@example.com' }] },
	);
	expect(run.items.map((item) => item.json.writeOutcome)).toEqual(['refused', 'notSent']);
	expect(String(run.items[1].json.description)).not.toMatch(/did not reach the service/);
	expect(posts()).toHaveLength(1);
});

it('a service that refuses the connection: the create is sent once more after a pause, then fails as not sent, saying so', async () => {
	const run = await runNode(createLead('joana.fora@example.com'), { baseUrl: await closedUrl(), apiKey: sandbox.apiKey, continueOnFail: true });
	const item = run.items[0].json;
	expect([item.writeOutcome, item.error]).toEqual(['notSent', 'Could not reach the service after 2 attempts: the service refused the connection']);
});

it('without Skip If Exists, a create is not held back by another one for the same contact that looks for its lost lead', async () => {
	const email = 'joana.paralela@example.com';
	sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
	const finished: string[] = [];
	const first = runNode(createLead(email, { options: { lostLeadSearch: 3 } }), { ...connection, continueOnFail: true }).then(() => finished.push('first'));
	// The second starts once the first's create is lost and its searches have begun.
	for (let waited = 0; !sandbox.control.requests().some((request) => request.query.search === email); waited += 50) {
		if (waited > 10_000) throw new Error('the first create never searched');
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	// Another name, so the first's searches do not take this lead for theirs.
	await runNode(createLead(email, { name: 'Joana Outra' }), connection).then(() => finished.push('second'));
	await first;
	// Both sent: without Skip If Exists the user asked for no check, and a second lead is theirs to make.
	expect(finished).toEqual(['second', 'first']);
	expect(posts()).toHaveLength(2);
}, 20_000);

it('Skip If Exists with a name: a lead with the phone under another name is not taken; the same name in other case and spaces is', async () => {
	const response = await fetch(`${sandbox.url}/api/v1/leads?apiKey=${sandbox.apiKey}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'Marta Lima', phones: [{ value: '(11) 3333-4444', label: 'Principal' }] }),
	});
	const existing = (await response.json()) as { id: string };
	const skipping = (name: string, phone: string) => ({ resource: 'lead', operation: 'create', name, phone, options: { skipIfExists: true } });

	const other = await runNode(skipping('Outra Pessoa', '11 3333 4444'), connection);
	expect(other.items.map((item) => [item.json.leadOutcome, item.json.id === existing.id])).toEqual([['created', false]]);

	const same = await runNode(skipping('  marta LIMA ', '11 3333-4444'), connection);
	expect(same.items.map((item) => [item.json.leadOutcome, item.json.id])).toEqual([['found', existing.id]]);
});

it('Skip If Exists takes only the lead with the phone and the name, from a search that also returns others, lists left out, numbers bare', async () => {
	// The spec shows contacts as { value, label } lists; a service may also omit an empty list, give a bare number or a
	// null entry, pad a name, and its search may return a lead by its name alone.
	const page = {
		data: [
			{ id: 'homonima', name: 'Marta Lima', emails: [null, { value: 'marta@example.com' }] },
			{ id: 'sem-nome', phones: [1133334444] },
			{ id: 'marta', name: ' Marta Lima ', mobiles: [5511999990000, 1133334444] },
		],
	};
	sandbox.control.injectFault({ kind: 'malformed', body: JSON.stringify(page), count: 1, methods: ['GET'], pathPrefix: '/leads' });
	const run = await runNode({ resource: 'lead', operation: 'create', name: 'Marta Lima', phone: '(11) 3333-4444', options: { skipIfExists: true } }, connection);
	expect(run.items.map((item) => [item.json.leadOutcome, item.json.id])).toEqual([['found', 'marta']]);
	expect(posts()).toHaveLength(0);
});

it('a contact given twice in one item, in another case or punctuation, is sent once; different ones all, each with its label', async () => {
	const run = await runNode(
		{
			resource: 'lead',
			operation: 'create',
			email: 'Ana.Souza@Example.com',
			phone: '(11) 3333-4444',
			additionalFields: {
				mobile: '+55 11 98888-7777',
				emails: { values: [{ value: 'ana.souza@example.com', label: 'trabalho' }, { value: 'ana@pessoal.com', label: 'pessoal' }] },
				phones: { values: [{ value: '11 3333 4444', label: 'comercial' }, { value: '11 5555-6666', label: 'comercial' }] },
				mobiles: { values: [{ value: '5511988887777', label: 'celular' }] },
			},
		},
		connection,
	);
	expect(run.items.map((item) => item.json.leadOutcome)).toEqual(['created']);
	const stored = sandbox.control.leads().find((lead) => lead.id === run.items[0].json.id)!;
	expect({ emails: stored.emails, phones: stored.phones, mobiles: stored.mobiles }).toEqual({
		emails: [{ value: 'Ana.Souza@Example.com', label: 'Principal' }, { value: 'ana@pessoal.com', label: 'pessoal' }],
		phones: [{ value: '(11) 3333-4444', label: 'Principal' }, { value: '11 5555-6666', label: 'comercial' }],
		mobiles: [{ value: '+55 11 98888-7777', label: 'Principal' }],
	});
});

describe('Lead Create, answers that are not the created lead', () => {
	const failing = (email: string) =>
		runNode(createLead(email, { options: { lostLeadSearch: 1 } }), { ...connection, continueOnFail: true });

	it.each([500, 503])('a %i after the commit: the search finds the lead, returned as found, sent once', async (status) => {
		sandbox.control.injectFault({ kind: 'status', status: status as 500 | 503, when: 'after-commit', count: 1, methods: ['POST'] });
		const email = `depois.${status}@example.com`;
		const run = await failing(email);
		expect(run.items.map((item) => [item.json.id, item.json.leadOutcome])).toEqual([[leadsWithEmail(email)[0].id, 'found']]);
		expect(posts()).toHaveLength(1);
	});

	it('a 200 HTML page before the commit (a proxy maintenance page): nothing reported created, the item ends "may exist" as unknown', async () => {
		sandbox.control.injectFault({ kind: 'malformed', count: 1, methods: ['POST'] });
		const run = await failing('html.antes@example.com');
		expect(run.items.map((item) => [item.json.id, item.json.writeOutcome])).toEqual([[undefined, 'unknown']]);
		expect(String(run.items[0].json.error)).toMatch(/^The lead for html\.antes@example\.com may exist/);
		expect(JSON.stringify(run.items[0].json)).not.toMatch(/<html|<!DOCTYPE/i);
		expect(posts()).toHaveLength(1);
	});

	it('a 200 HTML page after the commit: the search finds the lead, returned as found', async () => {
		sandbox.control.injectFault({ kind: 'malformed', when: 'after-commit', count: 1, methods: ['POST'] });
		const run = await failing('html.depois@example.com');
		expect(run.items.map((item) => [item.json.id, item.json.leadOutcome])).toEqual([[leadsWithEmail('html.depois@example.com')[0].id, 'found']]);
		expect(posts()).toHaveLength(1);
	});

	it('a 200 JSON answer without the lead\'s id is not taken for the created lead', async () => {
		sandbox.control.injectFault({ kind: 'malformed', body: '{"ok":true}', count: 1, methods: ['POST'] });
		const run = await failing('sem.id@example.com');
		expect(run.items.map((item) => [item.json.id, item.json.writeOutcome])).toEqual([[undefined, 'unknown']]);
		expect(run.items[0].json).not.toHaveProperty('ok');
	});

	it('a 301 from a moved host is not followed: the item fails naming the redirect, refused, and no list is returned as the lead', async () => {
		sandbox.control.injectFault({ kind: 'redirect', status: 301, location: 'https://novo.example.com/api/v1/leads', count: 1, methods: ['POST'] });
		const run = await failing('movido@example.com');
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json.writeOutcome).toBe('refused');
		expect(String(run.items[0].json.error)).toMatch(/novo\.example\.com/);
		expect(run.items[0].json.id).toBeUndefined();
		expect(sandbox.control.requests().map((request) => request.method)).toEqual(['POST']);
		expectNoSecret(run, sandbox.apiKey);
	});

	it('a 400 refusal is reported in the service words with its outcome refused, and not searched for', async () => {
		// Seven digits pass the node's check; the service asks for eight.
		const run = await runNode(
			{ resource: 'lead', operation: 'create', name: 'Curto', phone: '123-4567', options: { lostLeadSearch: 1 } },
			{ ...connection, continueOnFail: true },
		);
		expect(run.items.map((item) => item.json.writeOutcome)).toEqual(['refused']);
		expect(String(run.items[0].json.description)).toMatch(/Telefone inválido: informe ao menos 8 dígitos\./);
		expect(sandbox.control.requests().map((request) => request.method)).toEqual(['POST']);
	});
});

it('creates exactly 500 leads in a bulk run with answers lost at random after commit', async () => {
	sandbox.control.injectFault({
		kind: 'drop',
		when: 'after-commit',
		count: 1000,
		probability: 0.08,
		methods: ['POST'],
	});
	const inputItems = Array.from({ length: 500 }, (_, index) => ({
		email: `bulk${index}@example.com`,
		name: `Bulk ${index}`,
	}));
	// The node's pauses before it looks for a lead whose answer was lost run on the controlled clock.
	const run = await runNodeOnClock(
		{
			resource: 'lead',
			operation: 'create',
			name: '={{ $json.name }}',
			email: '={{ $json.email }}',
		},
		{ ...connection, inputItems },
	);
	sandbox.control.clearFaults();
	expect(run.error).toBeUndefined();
	const dropped = sandbox.control
		.requests()
		.filter((request) => request.method === 'POST' && request.status === 0);
	expect(dropped.length).toBeGreaterThan(10);
	const bulk = sandbox.control.leads().filter((lead) => lead.emails[0]?.value.startsWith('bulk'));
	expect(bulk).toHaveLength(500);
	expect(new Set(bulk.map((lead) => lead.emails[0].value)).size).toBe(500);
	expect(run.items).toHaveLength(500);
	run.items.forEach((item, index) => {
		expect(item.pairedItem).toEqual({ item: index });
		expect((item.json.emails as Array<{ value: string }>)[0].value).toBe(
			`bulk${index}@example.com`,
		);
	});
}, 120_000);
