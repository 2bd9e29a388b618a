/**
 * After a create whose outcome is unknown, Lead Create takes only the lead it sent: one created at or after the
 * send (the service's clock, less a margin for its Date header's whole seconds) that matches every field sent and
 * carried by the answer (name, company, each contact). An older lead with the same contact, or a newer one with
 * other fields, is never reported as created.
 */
import type { IDataObject } from 'n8n-workflow';

import { jsonOf, runNode } from './support';
import { useSandbox } from '../support/sandbox';
import { existingLead } from '../support/service';

const { sandbox, connection } = useSandbox({ readLimit: 100_000, writeLimit: 100_000, dataset: { leads: 5 } });

const HOUR_MS = 60 * 60 * 1000;

/** A lead stored straight in the service, as the app or an earlier form would have, created at `createdAt`. */
async function storedLead(body: IDataObject, createdAt: Date): Promise<string> {
	sandbox.control.setCreatedAt(createdAt.toISOString());
	try {
		return await existingLead(sandbox, body);
	} finally {
		sandbox.control.setCreatedAt(null);
	}
}

const leadsOf = (email: string) =>
	sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));
const posts = () => sandbox.control.requests().filter((request) => request.method === 'POST').length;

const formWithoutName = (email: string, options: IDataObject = {}) => ({
	resource: 'lead',
	operation: 'create',
	email,
	options: { lostLeadSearch: 1, ...options },
});

describe('Lead Create, a lost create and an older lead with the same contact', () => {
	it('a form without a name, its create dropped before the commit, an older lead with that e-mail: "may exist", never the older lead', async () => {
		const email = 'ana.antiga@example.com';
		const older = await storedLead({ name: 'Ana Antiga', emails: [{ value: email, label: 'Principal' }] }, new Date(Date.now() - HOUR_MS));
		const before = posts();
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });

		const run = await runNode(formWithoutName(email), { ...connection, continueOnFail: true });

		expect(run.items).toHaveLength(1);
		const [item] = jsonOf(run.items);
		expect(item.id).toBeUndefined();
		expect(item.error).toBe(`The lead for ${email} may exist: the outcome of its create is unknown, and it was not sent again`);
		expect(item.writeOutcome).toBe('unknown');
		expect(JSON.stringify(item)).not.toContain(older);
		expect(leadsOf(email).map((lead) => lead.id)).toEqual([older]);
		expect(posts() - before).toBe(1);
	});

	it('the same form whose create was committed before its answer was lost: the new lead is returned as found, not the older one', async () => {
		const email = 'bia.antiga@example.com';
		const older = await storedLead({ name: 'Bia Antiga', emails: [{ value: email, label: 'Principal' }] }, new Date(Date.now() - HOUR_MS));
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });

		const run = await runNode(formWithoutName(email), connection);

		expect(run.error).toBeUndefined();
		const created = leadsOf(email).filter((lead) => lead.id !== older);
		expect(created).toHaveLength(1);
		expect(jsonOf(run.items)).toEqual([expect.objectContaining({ id: created[0].id, leadOutcome: 'found' })]);
	});

	it('a lead created in the window with the same e-mail but another company is not taken for the one sent', async () => {
		const email = 'caio.outro@example.com';
		// Someone else's lead, stamped after the send (the service's clock is ahead of the node's here).
		await storedLead(
			{ name: 'Caio', company: 'Outra Empresa', emails: [{ value: email, label: 'Principal' }] },
			new Date(Date.now() + 60_000),
		);
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });

		const run = await runNode(
			{ ...formWithoutName(email), name: 'Caio', company: 'Empresa Certa' },
			{ ...connection, continueOnFail: true },
		);

		expect(jsonOf(run.items)[0].error).toMatch(/^The lead for caio\.outro@example\.com may exist/);
		expect(jsonOf(run.items)[0].writeOutcome).toBe('unknown');
	});

	it('a lead created in the window that lacks one of the e-mails sent is not taken for the one sent', async () => {
		const email = 'duda.dois@example.com';
		await storedLead({ name: 'Duda', emails: [{ value: email, label: 'Principal' }] }, new Date(Date.now() + 60_000));
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });

		const run = await runNode(
			{
				...formWithoutName(email),
				name: 'Duda',
				additionalFields: { emails: { values: [{ value: 'duda.trabalho@example.com', label: 'Trabalho' }] } },
			},
			{ ...connection, continueOnFail: true },
		);

		expect(jsonOf(run.items)[0].error).toMatch(/^The lead for duda\.dois@example\.com may exist/);
	});
});

describe('Lead Create, a lost create sent with phones', () => {
	const withPhones = (tag: string) => ({
		resource: 'lead',
		operation: 'create',
		name: `Telefone ${tag}`,
		company: 'Fones Ltda',
		phone: '+55 11 3333-4444',
		additionalFields: { mobile: `+55 11 9${tag}888-7777` },
		options: { lostLeadSearch: 1 },
	});
	const withMobile = (mobile: string) =>
		sandbox.control.leads().filter((lead) => lead.mobiles.some((item) => item.value === mobile));

	it('its answer lost after the commit: the lead with that phone and mobile is found', async () => {
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });
		const run = await runNode(withPhones('1'), connection);
		expect(run.error).toBeUndefined();
		expect(jsonOf(run.items)).toEqual([expect.objectContaining({ id: withMobile('+55 11 91888-7777')[0].id, leadOutcome: 'found' })]);
	});

	it('a lead created in the window with the same phone but another mobile is not taken for it', async () => {
		await storedLead(
			{ name: 'Telefone 2', company: 'Fones Ltda', emails: [{ value: 'fones.outro@example.com', label: 'Principal' }], phones: [{ value: '+55 11 3333-4444', label: 'Principal' }], mobiles: [{ value: '+55 11 95555-0000', label: 'Principal' }] },
			new Date(Date.now() + 60_000),
		);
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		const run = await runNode(withPhones('2'), { ...connection, continueOnFail: true });
		expect(jsonOf(run.items)[0].error).toMatch(/^The lead for \+55 11 3333-4444 may exist/);
	});
});

describe('Lead Create, any failed search in the window', () => {
	it('an earlier search failed and the later ones found nothing: "may exist", and Send Again If Not Found sends nothing', async () => {
		const email = 'falha.cedo@example.com';
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		// The first search of the window fails (one call and its 4 read retries); the later ones answer.
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 5, methods: ['GET'] });
		const before = posts();

		const run = await runNode(
			{ ...formWithoutName(email, { retryWhenNotCreated: true }), name: 'Falha Cedo' },
			{ ...connection, continueOnFail: true },
		);

		const [item] = jsonOf(run.items);
		expect(item.error).toMatch(/^The lead for falha\.cedo@example\.com may exist/);
		expect(String(item.description)).toMatch(/^\d+ searches over [\d.]+ s \(GET \/leads\?search=falha\.cedo@example\.com\): 1 of them failed \(/m);
		const searches = sandbox.control.requests().filter((request) => request.query.search === email);
		expect(searches.filter((request) => request.status === 200).length).toBeGreaterThanOrEqual(1);
		expect(posts() - before).toBe(1);
		expect(leadsOf(email)).toHaveLength(0);
	}, 30_000);
});

describe('Lead Create, the service clock behind the node', () => {
	/** The first create is applied, then answered 500: its outcome unknown, the node looks for the lead. */
	const loseFirstCreate = () =>
		sandbox.control.injectFault({ kind: 'status', status: 500, when: 'after-commit', count: 1, methods: ['POST'], pathPrefix: '/leads' });
	// The service's clock as it was started: on time, with a Date header.
	afterEach(() => sandbox.control.setRateLimit({ clockOffsetMs: 0, dateHeader: true }));

	it('a service 10 minutes behind stamps the lead before the send: its Date header tells the node, and the lead is found', async () => {
		// Far past what the node allows when it has no Date header to go by (UNMEASURED_CLOCK_ALLOWANCE_MS).
		// The service stamps leads with its own clock, 10 minutes behind the node's, and its Date header says so.
		sandbox.control.setRateLimit({ clockOffsetMs: -10 * 60_000 });
		loseFirstCreate();
		const email = 'relogio.atrasado@example.com';
		const run = await runNode({ ...formWithoutName(email), name: 'Relógio Atrasado' }, connection);
		expect(run.error).toBeUndefined();
		expect(jsonOf(run.items)).toEqual([expect.objectContaining({ id: leadsOf(email)[0].id, leadOutcome: 'found' })]);
	});

	it('with no Date header to go by, a lead stamped 1 minute before the send is taken for it, one stamped 10 minutes before is not', async () => {
		const results: unknown[] = [];
		for (const [email, behindMs] of [['sem.data.1@example.com', -60_000], ['sem.data.10@example.com', -10 * 60_000]] as const) {
			sandbox.control.reset();
			sandbox.control.setRateLimit({ clockOffsetMs: behindMs, dateHeader: false });
			loseFirstCreate();
			const run = await runNode({ ...formWithoutName(email), name: 'Sem Data' }, { ...connection, continueOnFail: true });
			results.push(jsonOf(run.items)[0].leadOutcome ?? jsonOf(run.items)[0].writeOutcome);
		}
		expect(results).toEqual(['found', 'unknown']);
	}, 20_000);
});

describe('Lead Create, Stop during the lost-lead search', () => {
	it('a Stop while looking for a lost lead logs a warning naming the contact, and nothing is sent again', async () => {
		const email = 'parada.busca@example.com';
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		const before = posts();
		// Stop once the first search of the window has been answered.
		const run = await runNode(formWithoutName(email, { lostLeadSearch: 30 }), {
			...connection,
			stop: { when: () => sandbox.control.requests().some((request) => request.query.search === email), what: 'searched' },
		});
		expect(run.logs.some((line) => line.startsWith('[warn]') && line.includes(`the lead for ${email} may exist`))).toBe(true);
		expect(posts() - before).toBe(1);
		expect(run.items.map((item) => item.json.id)).toEqual([]);
	}, 20_000);
});
