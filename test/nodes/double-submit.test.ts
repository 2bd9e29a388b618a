/**
 * Double submits: the same person posting a form twice at once runs two executions of Lead Create
 * with Skip If Exists in one n8n process. One search-and-create at a time per contact gives one lead;
 * different people still run side by side.
 */
import { jsonOf, runNode } from './support';
import { useSandbox } from '../support/sandbox';

const { sandbox, connection } = useSandbox({ dataset: { leads: 5 } });
/** Requests recorded before the posts under test. */
let earlier = 0;

beforeEach(async () => {
	// Both budgets already know the limit, so no call waits for a first answer.
	await runNode(
		{ resource: 'lead', operation: 'create', email: 'warm.up@example.com' },
		connection,
	);
	earlier = sandbox.control.requests().length;
	// Every call takes a while, as on a real network: two posts overlap for sure.
	sandbox.control.injectFault({ kind: 'latency', ms: 400 });
});

const post = (email: string, name = 'Rita') =>
	runNode(
		{
			resource: 'lead',
			operation: 'create',
			name,
			email,
			options: { skipIfExists: true },
		},
		connection,
	);

const calls = () =>
	sandbox.control
		.requests()
		.slice(earlier)
		.map((request) => `${request.method} ${request.path.replace(/^\/api\/v1/, '')}`);

it('a form posted twice at once gives one lead, returned to both executions', async () => {
	const [first, second] = await Promise.all([
		post('rita.double@example.com'),
		post('RITA.double@example.com'),
	]);
	expect(first.error).toBeUndefined();
	expect(second.error).toBeUndefined();
	const created = sandbox.control
		.leads()
		.filter((lead) =>
			lead.emails.some((email) => email.value.toLowerCase() === 'rita.double@example.com'),
		);
	expect(created).toHaveLength(1);
	expect(jsonOf(first.items)[0].id).toBe(created[0].id);
	expect(jsonOf(second.items)[0].id).toBe(created[0].id);
	// The second search ran after the first creation.
	expect(calls()).toEqual(['GET /leads', 'POST /leads', 'GET /leads']);
});

it('two different people posting at once are searched side by side, each getting their own lead', async () => {
	const [first, second] = await Promise.all([
		post('ana.side@example.com', 'Ana'),
		post('bia.side@example.com', 'Bia'),
	]);
	expect(first.error).toBeUndefined();
	expect(second.error).toBeUndefined();
	expect(jsonOf(first.items)[0].name).toBe('Ana');
	expect(jsonOf(second.items)[0].name).toBe('Bia');
	// Both searches were sent before either creation: neither waited for the other.
	expect(calls()).toEqual(['GET /leads', 'GET /leads', 'POST /leads', 'POST /leads']);
});
