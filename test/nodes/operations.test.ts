/** Every operation of the Prospecting node, run as a workflow against the sandbox. */
import { expectNoSecret, jsonOf, runNode } from './support';
import { useSandbox } from '../support/sandbox';

const { sandbox, connection } = useSandbox({
		rateLimit: false,
		dataset: {
			leads: 30,
			routines: 6,
			prospections: 40,
			activitiesPerProspection: 3,
			customFields: 5,
			threads: 20,
		},
	});

function requestsTo(path: string) {
	return sandbox.control.requests().filter((request) => request.path === `/api/v1${path}`);
}

describe('lead', () => {
	it('getMany with Return All returns every lead once, oldest first, with the same order on every page', async () => {
		const run = await runNode(
			{ resource: 'lead', operation: 'getMany', returnAll: true, options: { pageSize: 7 } },
			connection,
		);
		expect(run.error).toBeUndefined();
		const ids = jsonOf(run.items).map((lead) => lead.id);
		const expected = [...sandbox.control.leads()]
			.sort((a, b) => a.createdAt.localeCompare(b.createdAt))
			.map((lead) => lead.id);
		expect(ids).toEqual(expected);
		const pages = requestsTo('/leads');
		expect(pages.map((request) => request.query.page)).toEqual(['1', '2', '3', '4', '5']);
		for (const request of pages) {
			expect(request.query).toMatchObject({
				orderBy: 'createdAt',
				orderDirection: 'asc',
				limit: '7',
			});
		}
		expect(run.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		expectNoSecret(run, sandbox.apiKey);
	});

	it('getMany filters by search and by several routine IDs', async () => {
		const target = sandbox.control.leads()[3];
		const bySearch = await runNode(
			{
				resource: 'lead',
				operation: 'getMany',
				returnAll: true,
				filters: { search: target.emails[0]?.value ?? target.name },
			},
			connection,
		);
		expect(jsonOf(bySearch.items).map((lead) => lead.id)).toContain(target.id);

		const routines = sandbox.control
			.routines()
			.slice(0, 2)
			.map((routine) => routine.id);
		const byRoutine = await runNode(
			{
				resource: 'lead',
				operation: 'getMany',
				returnAll: true,
				filters: { routineIds: routines.join(',') },
			},
			connection,
		);
		const expected = sandbox.control
			.leads()
			.filter((lead) => lead.routineIds.some((id) => routines.includes(id)));
		expect(byRoutine.items).toHaveLength(expected.length);
		expect(requestsTo('/leads').at(-1)?.query.routineIds).toEqual(routines);
	});

	it('create sends name, company and every contact, and returns the created lead', async () => {
		const run = await runNode(
			{
				resource: 'lead',
				operation: 'create',
				name: 'Maria Teste',
				company: 'Empresa Teste',
				email: 'maria.teste@example.com',
				phone: '+55 11 3333-4444',
				additionalFields: {
					mobile: '+55 11 99999-8888',
					emails: { values: [{ value: 'maria2@example.com', label: 'pessoal' }] },
				},
			},
			connection,
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		const created = run.items[0].json;
		const stored = sandbox.control.leads().find((lead) => lead.id === created.id);
		expect(stored).toMatchObject({
			name: 'Maria Teste',
			company: 'Empresa Teste',
			emails: [
				{ value: 'maria.teste@example.com', label: 'Principal' },
				{ value: 'maria2@example.com', label: 'pessoal' },
			],
			phones: [{ value: '+55 11 3333-4444', label: 'Principal' }],
			mobiles: [{ value: '+55 11 99999-8888', label: 'Principal' }],
		});
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('multi-value filters', () => {
	it.each([
		['repeat', 'routineIds', (ids: string[]) => ids],
		['brackets', 'routineIds[]', (ids: string[]) => ids],
		['comma', 'routineIds', (ids: string[]) => ids.join(',')],
	] as const)(
		'take a list from an expression and write it in the %s format',
		async (format, key, shape) => {
			const routines = sandbox.control
				.routines()
				.slice(1, 3)
				.map((routine) => routine.id);
			const run = await runNode(
				{
					resource: 'lead',
					operation: 'getMany',
					returnAll: true,
					filters: { routineIds: `={{ ${JSON.stringify(routines)} }}` },
					options: { multiValueFormat: format },
				},
				connection,
			);
			expect(run.error).toBeUndefined();
			const expected = sandbox.control
				.leads()
				.filter((lead) => lead.routineIds.some((id) => routines.includes(id)));
			expect(run.items).toHaveLength(expected.length);
			expect(requestsTo('/leads')[0].query[key]).toEqual(shape(routines));
		},
	);
});

describe('routine', () => {
	it('getMany lists every routine and filters by status', async () => {
		const all = await runNode(
			{ resource: 'routine', operation: 'getMany', returnAll: true },
			connection,
		);
		expect(all.items).toHaveLength(sandbox.control.routines().length);

		const status = sandbox.control.routines()[0].status;
		const filtered = await runNode(
			{ resource: 'routine', operation: 'getMany', returnAll: true, filters: { status } },
			connection,
		);
		expect(filtered.items).toHaveLength(
			sandbox.control.routines().filter((r) => r.status === status).length,
		);
	});

	it('addLead adds the lead to the routine picked by ID and starts a prospection with a responsible', async () => {
		const routine = sandbox.control.routines()[0];
		const lead = sandbox.control
			.leads()
			.find((candidate) => !candidate.routineIds.includes(routine.id))!;
		const before = sandbox.control.prospections().length;
		const run = await runNode(
			{
				resource: 'routine',
				operation: 'addLead',
				routineId: { __rl: true, mode: 'id', value: routine.id },
				leadId: lead.id,
				// Not one of the users the routine's automatic distribution would pick.
				responsibleId: 'usr_gabriela',
			},
			connection,
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		expect(sandbox.control.leads().find((l) => l.id === lead.id)?.routineIds).toContain(routine.id);
		expect(sandbox.control.prospections().length).toBe(before + 1);
		// The responsible given, not the routine's automatic distribution.
		expect(sandbox.control.prospections().find((p) => p.leadId === lead.id && p.routineId === routine.id)?.responsibleId).toBe('usr_gabriela');
		expect(requestsTo(`/routines/${routine.id}/lead`)).toHaveLength(1);
	});

	it('addLead takes the routine from the list mode value too', async () => {
		const routine = sandbox.control.routines()[1];
		const lead = sandbox.control.leads()[0];
		const run = await runNode(
			{
				resource: 'routine',
				operation: 'addLead',
				routineId: { __rl: true, mode: 'list', value: routine.id, cachedResultName: routine.name },
				leadId: lead.id,
			},
			connection,
		);
		expect(run.error).toBeUndefined();
		expect(sandbox.control.leads().find((l) => l.id === lead.id)?.routineIds).toContain(routine.id);
	});
});

describe('prospection', () => {
	it('getMany filters by status', async () => {
		const run = await runNode(
			{
				resource: 'prospection',
				operation: 'getMany',
				returnAll: true,
				filters: { status: 'WON' },
			},
			connection,
		);
		const won = sandbox.control.prospections().filter((p) => p.status === 'WON');
		expect(
			jsonOf(run.items)
				.map((p) => p.id)
				.sort(),
		).toEqual(won.map((p) => p.id).sort());
	});

	it('getActivities lists the activities of one prospection', async () => {
		const prospection = sandbox.control.prospections()[2];
		const run = await runNode(
			{
				resource: 'prospection',
				operation: 'getActivities',
				prospectionId: prospection.id,
				returnAll: true,
			},
			connection,
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		expect(run.items.every((item) => item.json.prospectionId === prospection.id)).toBe(true);
	});

	it('getConversionRate is WON / (WON + LOST) from two filtered totals', async () => {
		const run = await runNode(
			{ resource: 'prospection', operation: 'getConversionRate' },
			connection,
		);
		const all = sandbox.control.prospections();
		const won = all.filter((p) => p.status === 'WON').length;
		const lost = all.filter((p) => p.status === 'LOST').length;
		expect(won + lost).toBeGreaterThan(0);
		expect(run.items.map((item) => item.json)).toEqual([
			{ won, lost, decided: won + lost, conversionRate: won / (won + lost) },
		]);
		const calls = requestsTo('/prospections');
		expect(calls.map((request) => [request.query.status, request.query.limit])).toEqual([
			['WON', '1'],
			['LOST', '1'],
		]);
	});

	it('getConversionRate applies the routine filter and is 0 when nothing is decided', async () => {
		const routineId = sandbox.control.routines()[0].id;
		const filtered = await runNode(
			{
				resource: 'prospection',
				operation: 'getConversionRate',
				filters: { routineIds: routineId },
			},
			connection,
		);
		const inRoutine = sandbox.control.prospections().filter((p) => p.routineId === routineId);
		expect(filtered.items[0].json.won).toBe(inRoutine.filter((p) => p.status === 'WON').length);
		expect(filtered.items[0].json.lost).toBe(inRoutine.filter((p) => p.status === 'LOST').length);

		const none = await runNode(
			{
				resource: 'prospection',
				operation: 'getConversionRate',
				filters: { leadId: 'lead_that_does_not_exist' },
			},
			connection,
		);
		expect(none.items[0].json).toEqual({ won: 0, lost: 0, decided: 0, conversionRate: 0 });
	});
});

describe('custom field and conversation thread', () => {
	it('customField getMany lists every field', async () => {
		const run = await runNode(
			{ resource: 'customField', operation: 'getMany', returnAll: true },
			connection,
		);
		expect(run.items).toHaveLength(5);
	});

	it('conversationThread getMany filters by channel, under the configured parameter name', async () => {
		const all = await runNode(
			{ resource: 'conversationThread', operation: 'getMany', returnAll: true },
			connection,
		);
		expect(all.items).toHaveLength(20);
		const emailCount = jsonOf(all.items).filter((thread) => thread.channel === 'EMAIL').length;

		const byChannel = await runNode(
			{
				resource: 'conversationThread',
				operation: 'getMany',
				returnAll: true,
				filters: { channel: 'EMAIL' },
			},
			connection,
		);
		expect(byChannel.items).toHaveLength(emailCount);
		expect(requestsTo('/conversations/threads').at(-1)?.query.channel).toBe('EMAIL');

		const renamed = await runNode(
			{
				resource: 'conversationThread',
				operation: 'getMany',
				returnAll: true,
				filters: { channel: 'WHATSAPP' },
				options: { channelParameterName: 'channels' },
			},
			connection,
		);
		expect(renamed.items).toHaveLength(20 - emailCount);
		expect(requestsTo('/conversations/threads').at(-1)?.query.channels).toBe('WHATSAPP');
	});
});

describe('webhook', () => {
	it('create returns the secret once, getMany lists without it, delete removes it', async () => {
		const created = await runNode(
			{
				resource: 'webhook',
				operation: 'create',
				name: 'Ganhos e perdas',
				url: 'https://example.com/hook',
				events: ['prospection.won', 'prospection.lost'],
			},
			connection,
		);
		expect(created.error).toBeUndefined();
		const webhook = created.items[0].json;
		expect(typeof webhook.secret).toBe('string');
		expect(sandbox.control.webhooks()).toHaveLength(1);

		const listed = await runNode(
			{ resource: 'webhook', operation: 'getMany', returnAll: true },
			connection,
		);
		expect(jsonOf(listed.items).map((w) => w.id)).toEqual([webhook.id]);
		expect(listed.items[0].json.secret).toBeUndefined();
		expect(requestsTo('/webhooks').filter((r) => r.method === 'GET')[0].query.page).toBeUndefined();

		const deleted = await runNode(
			{ resource: 'webhook', operation: 'delete', webhookId: String(webhook.id) },
			connection,
		);
		expect(deleted.items[0].json).toMatchObject({ id: webhook.id, deleted: true });
		expect(sandbox.control.webhooks()).toHaveLength(0);
		expectNoSecret(listed, String(webhook.secret));
	});
});

it('runs once per input item and pairs each output item with its input', async () => {
	const run = await runNode(
		{ resource: 'lead', operation: 'getMany', returnAll: false, limit: '={{ $json.howMany }}' },
		{ ...connection, inputItems: [{ howMany: 2 }, { howMany: 3 }] },
	);
	expect(run.error).toBeUndefined();
	expect(run.items.map((item) => item.pairedItem)).toEqual([
		{ item: 0 },
		{ item: 0 },
		{ item: 1 },
		{ item: 1 },
		{ item: 1 },
	]);
});
