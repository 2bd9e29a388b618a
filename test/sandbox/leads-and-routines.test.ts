/** Lead creation rules, request validation and adding a lead to a routine. */
import { API_LEAD_ORIGIN } from '../../sandbox';
import { call } from '../support/service';
import { walk } from './support';
import { useSandbox } from '../support/sandbox';

const validLead = { name: 'Maria Souza', company: 'Aurora Saúde', emails: [{ value: 'maria@example.com', label: 'trabalho' }] };

describe('sandbox leads and routines', () => {
	const { sandbox } = useSandbox({ rateLimit: false });

	it("creates a lead marked 'Levantada de Mão' with an ISO 8601 createdAt later than every existing lead", async () => {
		const before = sandbox.control.leads();
		const latest = Math.max(...before.map((l) => Date.parse(l.createdAt)));
		const { status, body } = await call(sandbox, 'POST', '/leads', { body: validLead });
		expect(status).toBe(201);
		expect(body).toMatchObject({ ...validLead, phones: [], mobiles: [], origin: API_LEAD_ORIGIN });
		expect(body.origin).toBe('Levantada de Mão');
		expect(typeof body.id).toBe('string');
		expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
		expect(Date.parse(body.createdAt)).toBeGreaterThan(latest);
		expect(sandbox.control.leads()).toHaveLength(before.length + 1);
	});

	it('shows new leads at the end of an ascending walk and first in a descending one', async () => {
		const first = await call(sandbox, 'POST', '/leads', { body: validLead });
		const second = await call(sandbox, 'POST', '/leads', { body: { ...validLead, name: 'Outra Pessoa' } });
		const asc = await walk(sandbox, '/leads', 'limit=100&orderBy=createdAt&orderDirection=asc');
		expect(asc.slice(-2).map((l) => l.id)).toEqual([first.body.id, second.body.id]);
		const desc = await call(sandbox, 'GET', '/leads', { query: 'limit=2&orderBy=createdAt&orderDirection=desc' });
		expect(desc.body.data.map((l: any) => l.id)).toEqual([second.body.id, first.body.id]);
	});

	it('requires at least one contact across emails, phones and mobiles', async () => {
		const count = sandbox.control.leads().length;
		const none = await call(sandbox, 'POST', '/leads', { body: { name: 'Sem contato', emails: [], phones: [] } });
		expect(none.status).toBe(400);
		expect(none.body.errors).toEqual([{ field: 'emails', message: expect.stringMatching(/ao menos um contato/) }]);
		for (const contact of [{ phones: [{ value: '+55 11 3333-4444', label: 'comercial' }] }, { mobiles: [{ value: '11 98888-7777', label: 'celular' }] }]) {
			expect((await call(sandbox, 'POST', '/leads', { body: { name: 'Com telefone', ...contact } })).status).toBe(201);
		}
		expect(sandbox.control.leads()).toHaveLength(count + 2);
	});

	it('answers invalid bodies with 400 { message, errors: [{ field, message }] } naming each exact field, creating nothing', async () => {
		const count = sandbox.control.leads().length;
		const cases: Array<[unknown, string[]]> = [
			[{ emails: [{ value: '', label: 'x' }] }, ['emails[0].value']],
			[{ emails: [{ value: 'a@b.co', label: 'x' }, { label: 'y' }] }, ['emails[1].value']],
			[{ emails: [{ value: 'not-an-email', label: 'x' }] }, ['emails[0].value']],
			[{ name: 42, company: ['x'], emails: [{ value: 'a@b.co', label: 'x' }] }, ['name', 'company']],
			[{ emails: 'a@b.co' }, ['emails']],
			[{ phones: ['11 3333-4444'] }, ['phones[0]']],
			[{ mobiles: [{ value: 119, label: 'celular' }] }, ['mobiles[0].value']],
			[{ emails: [{ value: 'a@b.co', label: 7 }] }, ['emails[0].label']],
			[[validLead], ['body']],
			['texto', ['body']],
		];
		for (const [body, fields] of cases) {
			const result = await call(sandbox, 'POST', '/leads', { body });
			expect(result.status).toBe(400);
			expect(typeof result.body.message).toBe('string');
			expect(result.body.message).toMatch(/^Dados inválidos/);
			expect(result.body.errors.map((e: any) => e.field)).toEqual(fields);
			for (const error of result.body.errors) expect(error.message).toMatch(/\S/);
		}
		expect(sandbox.control.leads()).toHaveLength(count);
	});

	it('answers malformed JSON with 400 naming the body, and keeps serving', async () => {
		const result = await call(sandbox, 'POST', '/leads', { rawBody: '{"name": "Ana", ' });
		expect(result.status).toBe(400);
		expect(result.body.errors).toEqual([{ field: 'body', message: expect.stringMatching(/^JSON malformado/) }]);
		expect((await call(sandbox, 'GET', '/leads', { query: 'limit=1' })).status).toBe(200);
	});

	it('does not protect against duplicates: the same lead sent twice is created twice', async () => {
		const a = await call(sandbox, 'POST', '/leads', { body: validLead });
		const b = await call(sandbox, 'POST', '/leads', { body: validLead });
		expect(a.body.id).not.toBe(b.body.id);
		const found = await call(sandbox, 'GET', '/leads', { query: 'search=maria@example.com' });
		expect(found.body.meta.total).toBe(2);
	});

	it('finds a new lead by search right after it is created, even when the same search ran before', async () => {
		const before = await call(sandbox, 'GET', '/leads', { query: 'search=example.com&limit=1' });
		await call(sandbox, 'POST', '/leads', { body: { name: 'Nova', emails: [{ value: 'nova@example.com', label: 'x' }] } });
		const after = await call(sandbox, 'GET', '/leads', { query: 'search=example.com&limit=100&orderDirection=desc' });
		expect(after.body.meta.total).toBe(before.body.meta.total + 1);
		expect(after.body.data[0].name).toBe('Nova');
	});

	it('starts an IN_PROGRESS prospection when a lead is added to a routine with a responsibleId', async () => {
		const routine = sandbox.control.routines().find((r) => !r.automaticDistribution)!;
		const lead = (await call(sandbox, 'POST', '/leads', { body: validLead })).body;
		const before = sandbox.control.prospections();
		const { status, body } = await call(sandbox, 'POST', `/routines/${routine.id}/lead`, {
			body: { leadId: lead.id, responsibleId: 'usr_bruno' },
		});
		expect(status).toBe(200);
		expect(body).toMatchObject({ routineId: routine.id, leadId: lead.id, responsibleId: 'usr_bruno', prospectionStarted: true });
		expect(body.prospection).toMatchObject({ status: 'IN_PROGRESS', leadId: lead.id, routineId: routine.id, responsibleId: 'usr_bruno' });
		expect(Date.parse(body.prospection.createdAt)).toBeGreaterThan(Math.max(...before.map((p) => Date.parse(p.createdAt))));
		const listed = await call(sandbox, 'GET', '/prospections', { query: `leadId=${lead.id}` });
		expect(listed.body.data).toEqual([body.prospection]);
		const inRoutine = await call(sandbox, 'GET', '/leads', { query: `routineIds=${routine.id}&search=maria@example.com` });
		expect(inRoutine.body.meta.total).toBe(1);
	});

	it('starts a prospection when the routine distributes automatically, and none otherwise', async () => {
		const automatic = sandbox.control.routines().find((r) => r.automaticDistribution)!;
		const manual = sandbox.control.routines().find((r) => !r.automaticDistribution)!;
		const lead = (await call(sandbox, 'POST', '/leads', { body: validLead })).body;
		const auto = await call(sandbox, 'POST', `/routines/${automatic.id}/lead`, { body: { leadId: lead.id } });
		expect(auto.body.prospectionStarted).toBe(true);
		expect(auto.body.prospection.status).toBe('IN_PROGRESS');
		expect(typeof auto.body.prospection.responsibleId).toBe('string');
		const count = sandbox.control.prospections().length;
		const plain = await call(sandbox, 'POST', `/routines/${manual.id}/lead`, { body: { leadId: lead.id } });
		expect(plain.status).toBe(200);
		expect(plain.body).toMatchObject({ prospectionStarted: false, prospection: null, routineId: manual.id });
		expect(sandbox.control.prospections()).toHaveLength(count);
	});

	it('answers 404 for an unknown routine or lead and 400 for a missing or mistyped leadId', async () => {
		const routine = sandbox.control.routines()[0];
		const lead = sandbox.control.leads()[0];
		const unknownRoutine = await call(sandbox, 'POST', '/routines/rot_nope/lead', { body: { leadId: lead.id } });
		expect(unknownRoutine.status).toBe(404);
		expect(unknownRoutine.body.message).toBe('Rotina não encontrada.');
		const unknownLead = await call(sandbox, 'POST', `/routines/${routine.id}/lead`, { body: { leadId: 'lead_nope' } });
		expect(unknownLead.status).toBe(404);
		expect(unknownLead.body.message).toBe('Lead não encontrado.');
		const missing = await call(sandbox, 'POST', `/routines/${routine.id}/lead`, { body: {} });
		expect(missing.status).toBe(400);
		expect(missing.body.errors).toEqual([{ field: 'leadId', message: 'Campo obrigatório.' }]);
		const mistyped = await call(sandbox, 'POST', `/routines/${routine.id}/lead`, { body: { leadId: 12, responsibleId: false } });
		expect(mistyped.body.errors.map((e: any) => e.field)).toEqual(['leadId', 'responsibleId']);
	});
});
