/**
 * Routine Add Lead under the faults of a write: a 5xx after the commit, a proxy's 200 page, n8n's Retry On Fail
 * (the node runs again in the same execution) and a retried execution (Retry from the executions list). No read
 * tells whether a lead is in a routine, and a second add may start prospecting the same person twice: an add whose
 * outcome is unknown is never reported as done, nor sent again in the same execution.
 */
import { outcomeOf } from '../../nodes/Prospecting/helpers/outcome';
import { descriptionOf, jsonOf, runNode } from './support';
import { useSandbox } from '../support/sandbox';
import { existingLead } from '../support/service';

const { sandbox, connection } = useSandbox({ rateLimit: false, dataset: { leads: 3, routines: 3 } });

const adds = (routineId?: string) =>
	sandbox.control
		.requests()
		.filter((request) => request.method === 'POST' && request.path.endsWith('/lead'))
		.filter((request) => routineId === undefined || request.path.includes(`/routines/${routineId}/`));

/** A lead in no routine yet (every seeded lead is in every routine). */
const newLead = async (email: string) => await existingLead(sandbox, { name: 'Nova', emails: [{ value: email, label: 'work' }] });

const inRoutine = (leadId: string, routineId: string) =>
	sandbox.control.leads().find((lead) => lead.id === leadId)!.routineIds.includes(routineId);

/** Adds the lead of each item (`leadId`) to the routine of each item (`routineId`). */
const addLead = {
	resource: 'routine',
	operation: 'addLead',
	routineId: { __rl: true, mode: 'id', value: '={{ $json.routineId }}' },
	leadId: '={{ $json.leadId }}',
};

it.each([500, 503] as const)(
	'a %i after the commit: the item fails as unknown, saying the lead may have been added, and is not sent again',
	async (status) => {
		const routineId = sandbox.control.routines()[0].id;
		const leadId = await newLead('quinhentos@example.com');
		sandbox.control.injectFault({ kind: 'status', status, when: 'after-commit', count: 1, methods: ['POST'], pathPrefix: '/routines' });
		const run = await runNode(addLead, { ...connection, inputItems: [{ routineId, leadId }] });
		expect(run.items).toHaveLength(0);
		expect(run.error?.message).not.toMatch(/failed to process/);
		expect(outcomeOf(run.error)).toBe('unknown');
		expect(descriptionOf(run.error)).toMatch(/The lead may have been added \(or may still be added by a slow service\)/);
		expect(inRoutine(leadId, routineId)).toBe(true);
		expect(adds()).toHaveLength(1);
	},
);

it.each(['before-commit', 'after-commit'] as const)(
	'a 200 HTML page from a proxy (%s): the item fails as unknown and is never reported added',
	async (when) => {
		const routineId = sandbox.control.routines()[0].id;
		const leadId = await newLead(`pagina-${when}@example.com`);
		sandbox.control.injectFault({ kind: 'malformed', when, count: 1, methods: ['POST'], pathPrefix: '/routines' });
		const run = await runNode(addLead, { ...connection, continueOnFail: true, inputItems: [{ routineId, leadId }] });
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json.added).toBeUndefined();
		expect(run.items[0].json.writeOutcome).toBe('unknown');
		expect(String(run.items[0].json.description)).toMatch(/The lead may have been added/);
		expect(inRoutine(leadId, routineId)).toBe(when === 'after-commit');
		expect(adds()).toHaveLength(1);
	},
);

it('a redirect: the item fails as refused naming the Location, and the lead is not added', async () => {
	const routineId = sandbox.control.routines()[0].id;
	const leadId = await newLead('redirecionada@example.com');
	const location = `https://novo.example.com/api/v1/routines/${routineId}/lead`;
	sandbox.control.injectFault({ kind: 'redirect', status: 301, location, count: 1, methods: ['POST'] });
	const run = await runNode(addLead, { ...connection, inputItems: [{ routineId, leadId }] });
	expect(run.error?.message).toMatch(new RegExp(`^POST /routines/${routineId}/lead was redirected \\(301\\)`));
	expect(run.error?.message).toContain(location);
	expect(outcomeOf(run.error)).toBe('refused');
	expect(inRoutine(leadId, routineId)).toBe(false);
	expect(adds()).toHaveLength(1);
});

it('Retry On Fail: a lead added in the first try is not added again, and one whose answer was lost is never sent again', async () => {
	const [first, second] = sandbox.control.routines().map((routine) => routine.id);
	const leads = [await newLead('primeira@example.com'), await newLead('segunda@example.com')];
	// The second item's add is applied, then its answer lost: n8n runs the whole node again, twice.
	sandbox.control.injectFault({ kind: 'status', status: 504, when: 'after-commit', count: 1, methods: ['POST'], pathPrefix: `/routines/${second}` });
	const run = await runNode(addLead, {
		...connection,
		maxTries: 3,
		inputItems: [
			{ routineId: first, leadId: leads[0] },
			{ routineId: second, leadId: leads[1] },
		],
	});
	// The last try's error speaks of the first try: n8n did run the node again.
	expect(run.error?.message).toBe(
		`Lead ${leads[1]} may have been added to the routine: an earlier try of this node sent it and its answer was lost`,
	);
	expect(descriptionOf(run.error)).toMatch(/It was not sent again, as a second add may start prospecting the same person twice/);
	expect(outcomeOf(run.error)).toBe('unknown');
	expect(adds(first)).toHaveLength(1);
	expect(adds(second)).toHaveLength(1);
	expect(inRoutine(leads[0], first)).toBe(true);
	expect(inRoutine(leads[1], second)).toBe(true);
});

it('Retry On Fail with Continue On Fail: the first try\'s output is returned again, and the unknown add stays an error item', async () => {
	const [first, second] = sandbox.control.routines().map((routine) => routine.id);
	const leads = [await newLead('perdida@example.com'), await newLead('feita@example.com')];
	sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'], pathPrefix: `/routines/${first}` });
	const run = await runNode(addLead, {
		...connection,
		maxTries: 3,
		continueOnFail: true,
		inputItems: [
			{ routineId: first, leadId: leads[0] },
			{ routineId: second, leadId: leads[1] },
		],
	});
	const items = jsonOf(run.items);
	expect(items).toHaveLength(2);
	expect(String(items[0].error)).toMatch(/may have been added to the routine: an earlier try of this node sent it/);
	expect(items[1]).not.toHaveProperty('error');
	expect(adds(first)).toHaveLength(1);
	expect(adds(second)).toHaveLength(1);
});

it('in a retried execution the add is sent, and n8n\'s log warns that whether it was already added is not known', async () => {
	const routineId = sandbox.control.routines()[0].id;
	const leadId = await newLead('retentativa@example.com');
	const run = await runNode(addLead, { ...connection, mode: 'retry', inputItems: [{ routineId, leadId }] });
	expect(run.error).toBeUndefined();
	expect(inRoutine(leadId, routineId)).toBe(true);
	expect(adds()).toHaveLength(1);
	expect(run.logs.some((line) => line.startsWith(`[warn] Prospecting: Routine Add Lead of lead ${leadId} runs again in a retried execution`))).toBe(true);
});

it('outside a retried execution no such warning is logged', async () => {
	const routineId = sandbox.control.routines()[0].id;
	const leadId = await newLead('normal@example.com');
	const run = await runNode(addLead, { ...connection, inputItems: [{ routineId, leadId }] });
	expect(run.error).toBeUndefined();
	expect(run.logs.some((line) => line.includes('retried execution'))).toBe(false);
});

it('a routine that does not exist: the item fails naming the routine as typed, without spaces, and no "may have been added"', async () => {
	const leadId = await newLead('sem-rotina@example.com');
	const run = await runNode(addLead, { ...connection, inputItems: [{ routineId: '  rt_nao_existe  ', leadId }] });
	expect(run.error?.message).toContain('Routine "rt_nao_existe"');
	expect(outcomeOf(run.error)).toBe('refused');
	expect(descriptionOf(run.error)).not.toMatch(/may have been added/);
});

it.each([
	['without a responsible', {}, {}],
	['with a responsible', { responsibleId: 'usr_1' }, { responsibleId: 'usr_1' }],
])('an answer without a record (%s): the output says what was added, the routine ID as typed without spaces', async (_, given, shown) => {
	const routineId = sandbox.control.routines()[0].id;
	const leadId = await newLead(`resposta-vazia-${Object.keys(given).length}@example.com`);
	sandbox.control.injectFault({ kind: 'malformed', body: '{}', when: 'after-commit', count: 1, methods: ['POST'], pathPrefix: '/routines' });
	const run = await runNode({ ...addLead, ...given }, { ...connection, inputItems: [{ routineId: ` ${routineId} `, leadId }] });
	expect(run.error).toBeUndefined();
	expect(run.items.map((item) => item.json)).toEqual([{ routineId, leadId, added: true, ...shown }]);
	expect(inRoutine(leadId, routineId)).toBe(true);
});
