/** List conventions of the spec: shape, paging, ordering, filters, multi-value filters and search. */
import { DEFAULT_LIMIT, MAX_LIMIT, startSandbox, type RunningSandbox } from '../../sandbox';
import { call } from '../support/service';
import { walk } from './support';

describe('sandbox lists', () => {
	let sandbox: RunningSandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimit: false, dataset: { leads: 230, prospections: 120, routines: 9 } });
	});
	afterAll(() => sandbox.stop());

	it('answers paginated lists as { data, meta: { limit, count, total, page, totalPages } }, first page 1', async () => {
		const { status, body } = await call(sandbox, 'GET', '/leads', { query: 'limit=50' });
		expect(status).toBe(200);
		expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
		expect(body.meta).toEqual({ limit: 50, count: 50, total: 230, page: 1, totalPages: 5 });
		expect(body.data).toHaveLength(50);
	});

	it('uses a default page of 1 and a default limit, and returns a smaller count on the last page', async () => {
		const first = await call(sandbox, 'GET', '/leads');
		expect(first.body.meta).toMatchObject({ page: 1, limit: DEFAULT_LIMIT, count: DEFAULT_LIMIT });
		const last = await call(sandbox, 'GET', '/leads', { query: 'limit=100&page=3' });
		expect(last.body.meta).toEqual({ limit: 100, count: 30, total: 230, page: 3, totalPages: 3 });
		const beyond = await call(sandbox, 'GET', '/leads', { query: 'limit=100&page=4' });
		expect(beyond.body.data).toEqual([]);
		expect(beyond.body.meta.count).toBe(0);
	});

	it('rejects limit and page outside the allowed range with a 400 naming the parameter', async () => {
		for (const query of [`limit=${MAX_LIMIT + 1}`, 'limit=0', 'limit=abc', 'limit=2.5']) {
			const { status, body } = await call(sandbox, 'GET', '/leads', { query });
			expect(status).toBe(400);
			expect(body.errors).toEqual([expect.objectContaining({ field: 'limit' })]);
		}
		const page = await call(sandbox, 'GET', '/prospections', { query: 'page=0' });
		expect(page.status).toBe(400);
		expect(page.body.errors[0].field).toBe('page');
		const direction = await call(sandbox, 'GET', '/leads', { query: 'orderDirection=up' });
		expect(direction.body.errors[0].field).toBe('orderDirection');
		const orderBy = await call(sandbox, 'GET', '/leads', { query: 'orderBy=shoeSize' });
		expect(orderBy.body.errors[0].field).toBe('orderBy');
	});

	it('orders leads and prospections by createdAt asc or desc, and a walk sees every record once', async () => {
		for (const path of ['/leads', '/prospections']) {
			const asc = await walk(sandbox, path, 'limit=37&orderBy=createdAt&orderDirection=asc');
			const desc = await walk(sandbox, path, 'limit=37&orderBy=createdAt&orderDirection=desc');
			const total = (await call(sandbox, 'GET', path, { query: 'limit=1' })).body.meta.total;
			expect(asc).toHaveLength(total);
			expect(new Set(asc.map((r) => r.id)).size).toBe(total);
			const times = asc.map((r) => Date.parse(r.createdAt));
			expect(times).toEqual([...times].sort((a, b) => a - b));
			expect(desc.map((r) => r.id)).toEqual(asc.map((r) => r.id).reverse());
		}
	});

	it('applies filters as query parameters that change total', async () => {
		const all = (await call(sandbox, 'GET', '/prospections', { query: 'limit=1' })).body.meta.total;
		const counts: Record<string, number> = {};
		for (const status of ['IN_PROGRESS', 'FROZEN', 'WON', 'LOST']) {
			const { body } = await call(sandbox, 'GET', '/prospections', { query: `status=${status}&limit=100` });
			counts[status] = body.meta.total;
			expect(body.meta.total).toBeGreaterThan(0);
			expect(body.data.every((p: any) => p.status === status)).toBe(true);
		}
		expect(counts.IN_PROGRESS + counts.FROZEN + counts.WON + counts.LOST).toBe(all);
		const won = sandbox.control.prospections().filter((p) => p.status === 'WON').length;
		expect(counts.WON).toBe(won);
		const bad = await call(sandbox, 'GET', '/prospections', { query: 'status=DONE' });
		expect(bad.status).toBe(400);
		expect(bad.body.errors[0].field).toBe('status');
	});

	it('keeps status lists exact and in order after prospections change status', async () => {
		const all = sandbox.control.prospections();
		const changes: Array<[string, 'IN_PROGRESS' | 'FROZEN' | 'WON' | 'LOST']> = [
			[all[10].id, 'WON'], [all[3].id, 'LOST'], [all[57].id, 'FROZEN'], [all[99].id, 'IN_PROGRESS'], [all[10].id, 'LOST'],
		];
		for (const [id, status] of changes) await sandbox.control.setProspectionStatus(id, status);
		for (const status of ['IN_PROGRESS', 'FROZEN', 'WON', 'LOST']) {
			const expected = sandbox.control.prospections().filter((p) => p.status === status).map((p) => p.id);
			const asc = await walk(sandbox, '/prospections', `status=${status}&limit=7&orderBy=createdAt&orderDirection=asc`);
			expect(asc.map((p) => p.id)).toEqual(expected);
			const desc = await walk(sandbox, '/prospections', `status=${status}&limit=7&orderBy=createdAt&orderDirection=desc`);
			expect(desc.map((p) => p.id)).toEqual([...expected].reverse());
		}
		const two = await call(sandbox, 'GET', '/prospections', { query: 'status=WON,LOST&limit=1' });
		expect(two.body.meta.total).toBe(sandbox.control.prospections().filter((p) => ['WON', 'LOST'].includes(p.status)).length);
	});

	it('reads multi-value filters from repeated keys, bracketed keys and comma-separated values alike', async () => {
		const routines = sandbox.control.routines();
		const [a, b] = [routines[0].id, routines[1].id];
		const expected = sandbox.control.prospections().filter((p) => p.routineId === a || p.routineId === b).length;
		expect(expected).toBeGreaterThan(0);
		for (const query of [
			`routineIds=${a}&routineIds=${b}`,
			`routineIds[]=${a}&routineIds[]=${b}`,
			`routineIds[0]=${a}&routineIds[1]=${b}`,
			`routineIds=${a},${b}`,
			`${encodeURIComponent('routineIds[]')}=${a}&${encodeURIComponent('routineIds[]')}=${b}`,
		]) {
			const { body } = await call(sandbox, 'GET', '/prospections', { query: `${query}&limit=1` });
			expect(body.meta.total).toBe(expected);
		}
		const priorities = await call(sandbox, 'GET', '/routines', { query: 'priorities=HIGH,LOW&limit=100' });
		expect(priorities.body.meta.total).toBe(routines.filter((r) => ['HIGH', 'LOW'].includes(r.priority)).length);
		const types = await call(sandbox, 'GET', '/routines', { query: 'acquisitionTypes[]=INBOUND&limit=100' });
		expect(types.body.data.every((r: any) => r.acquisitionType === 'INBOUND')).toBe(true);
		expect(types.body.meta.total).toBe(routines.filter((r) => r.acquisitionType === 'INBOUND').length);
	});

	it('filters leads by sourceIds, createdByIds and routineIds', async () => {
		const leads = sandbox.control.leads();
		const source = leads[0].sourceId;
		const bySource = await call(sandbox, 'GET', '/leads', { query: `sourceIds=${source}&limit=1` });
		expect(bySource.body.meta.total).toBe(leads.filter((l) => l.sourceId === source).length);
		const creator = leads[3].createdById;
		const byCreator = await call(sandbox, 'GET', '/leads', { query: `createdByIds[]=${creator}&limit=1` });
		expect(byCreator.body.meta.total).toBe(leads.filter((l) => l.createdById === creator).length);
		const inRoutine = leads.find((l) => l.routineIds.length > 0)!;
		const byRoutine = await call(sandbox, 'GET', '/leads', { query: `routineIds=${inRoutine.routineIds[0]}&limit=100` });
		expect(byRoutine.body.data.map((l: any) => l.id)).toContain(inRoutine.id);
		expect(byRoutine.body.meta.total).toBeLessThan(leads.length);
	});

	it('matches the lead search against name, company, e-mail and phone', async () => {
		const leads = sandbox.control.leads();
		const withPhone = leads.find((l) => l.phones.length > 0)!;
		const withEmail = leads.find((l) => l.emails.length > 0)!;
		const cases: Array<[string, (l: any) => boolean]> = [
			[leads[5].name, (l) => l.name === leads[5].name],
			[leads[7].company, (l) => l.company === leads[7].company],
			[withEmail.emails[0].value, (l) => l.emails.some((e: any) => e.value === withEmail.emails[0].value)],
			[withPhone.phones[0].value, (l) => l.phones.some((p: any) => p.value === withPhone.phones[0].value)],
		];
		for (const [term, matches] of cases) {
			const { body } = await call(sandbox, 'GET', '/leads', { query: `search=${encodeURIComponent(term)}&limit=100` });
			expect(body.meta.total).toBeGreaterThan(0);
			expect(body.data.every(matches)).toBe(true);
		}
		// Phone digits match whatever the formatting.
		const digits = withPhone.phones[0].value.replace(/\D/g, '');
		const byDigits = await call(sandbox, 'GET', '/leads', { query: `search=${digits}&limit=100` });
		expect(byDigits.body.data.map((l: any) => l.id)).toContain(withPhone.id);
		const none = await call(sandbox, 'GET', '/leads', { query: 'search=zzzz-no-such-lead' });
		expect(none.body.meta).toMatchObject({ total: 0, count: 0 });
	});

	it('lists custom fields, conversation threads by channel and the activities of a prospection', async () => {
		const fields = await call(sandbox, 'GET', '/custom-fields', { query: 'limit=2' });
		expect(fields.body.meta).toMatchObject({ limit: 2, count: 2, page: 1 });
		const threads = await call(sandbox, 'GET', '/conversations/threads', { query: 'limit=100' });
		for (const channel of ['WHATSAPP', 'EMAIL']) {
			const filtered = await call(sandbox, 'GET', '/conversations/threads', { query: `channel=${channel}&limit=100` });
			expect(filtered.body.meta.total).toBeGreaterThan(0);
			expect(filtered.body.meta.total).toBeLessThan(threads.body.meta.total);
			expect(filtered.body.data.every((t: any) => t.channel === channel)).toBe(true);
		}
		const prospection = sandbox.control.prospections()[0];
		const activities = await call(sandbox, 'GET', `/prospections/${prospection.id}/activities`, { query: 'limit=100' });
		expect(activities.status).toBe(200);
		expect(activities.body.meta.total).toBeGreaterThan(0);
		expect(activities.body.data.every((a: any) => a.prospectionId === prospection.id)).toBe(true);
		const missing = await call(sandbox, 'GET', '/prospections/pro_unknown/activities');
		expect(missing.status).toBe(404);
		expect(missing.body.message).toMatch(/não encontrad/);
	});

	it('answers an empty custom-field list as 200 with data [] when the project has none', async () => {
		const empty = await startSandbox({ dataset: { customFields: 0 } });
		try {
			const { status, body } = await call(empty, 'GET', '/custom-fields');
			expect(status).toBe(200);
			expect(body.data).toEqual([]);
			expect(body.meta).toMatchObject({ total: 0, count: 0, page: 1, totalPages: 1 });
		} finally {
			await empty.stop();
		}
	});

	it('gives the conversion-rate counts through meta.total of status=WON and status=LOST lists', async () => {
		const won = await call(sandbox, 'GET', '/prospections', { query: 'status=WON&limit=1' });
		const lost = await call(sandbox, 'GET', '/prospections', { query: 'status=LOST&limit=1' });
		const all = sandbox.control.prospections();
		const expected = all.filter((p) => p.status === 'WON').length / all.filter((p) => ['WON', 'LOST'].includes(p.status)).length;
		expect(won.body.meta.total / (won.body.meta.total + lost.body.meta.total)).toBeCloseTo(expected, 10);
	});

	it('answers 404 in Portuguese for an unknown path under /api/v1', async () => {
		const { status, body } = await call(sandbox, 'GET', '/info');
		expect(status).toBe(404);
		expect(body.message).toMatch(/Rota não encontrada/);
		expect((await call(sandbox, 'GET', '/health')).status).toBe(404);
		expect((await call(sandbox, 'PUT', '/leads', { body: {} })).status).toBe(404);
	});

	it('keeps the same dataset for the same seed and a different one for another seed', async () => {
		const again = await startSandbox({ dataset: { leads: 230, prospections: 120, routines: 9 } });
		const other = await startSandbox({ seed: 2, dataset: { leads: 230, prospections: 120, routines: 9 } });
		try {
			const page = (s: RunningSandbox) => call(s, 'GET', '/leads', { query: 'limit=100&page=2' }).then((r) => r.body);
			expect(await page(again)).toEqual(await page(sandbox));
			expect((await page(other)).data).not.toEqual((await page(sandbox)).data);
			const routines = (s: RunningSandbox) => call(s, 'GET', '/routines', { query: 'limit=100' }).then((r) => r.body);
			expect(await routines(again)).toEqual(await routines(sandbox));
		} finally {
			await again.stop();
			await other.stop();
		}
	});
});
