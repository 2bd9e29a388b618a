/** Return All and Limit: page counts, edge sizes, records added during a walk, faulty pages. */
import { jsonOf, runNode, runNodeOnClock } from './support';
import { useSandbox } from '../support/sandbox';
import { existingLead } from '../support/service';

const { sandbox, connection } = useSandbox({ rateLimit: false, dataset: { leads: 23, customFields: 6 } });

function pagesRead(path: string) {
	return sandbox.control
		.requests()
		.filter((request) => request.method === 'GET' && request.path === `/api/v1${path}`);
}

const customFields = (extra: Record<string, unknown> = {}) => ({
	resource: 'customField',
	operation: 'getMany',
	...extra,
});

it('ends after one request when the list is empty', async () => {
	const run = await runNode(
		{
			resource: 'lead',
			operation: 'getMany',
			returnAll: true,
			filters: { search: 'nobody-matches-this' },
		},
		connection,
	);
	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(0);
	expect(pagesRead('/leads')).toHaveLength(1);
});

it('reads exactly one page when everything fits on it, also when it is exactly full', async () => {
	const roomy = await runNode(
		customFields({ returnAll: true, options: { pageSize: 10 } }),
		connection,
	);
	expect(roomy.items).toHaveLength(6);
	expect(pagesRead('/custom-fields')).toHaveLength(1);

	sandbox.control.reset();
	const full = await runNode(
		customFields({ returnAll: true, options: { pageSize: 6 } }),
		connection,
	);
	expect(full.items).toHaveLength(6);
	expect(pagesRead('/custom-fields')).toHaveLength(1);
});

it('reads no extra page when the total is an exact multiple of the page size', async () => {
	const run = await runNode(
		customFields({ returnAll: true, options: { pageSize: 3 } }),
		connection,
	);
	expect(jsonOf(run.items).map((field) => field.id)).toHaveLength(6);
	expect(new Set(jsonOf(run.items).map((field) => field.id)).size).toBe(6);
	expect(pagesRead('/custom-fields').map((request) => request.query.page)).toEqual(['1', '2']);
});

it('with Limit smaller than a page asks for just that many, in one request', async () => {
	const run = await runNode(
		{
			resource: 'lead',
			operation: 'getMany',
			returnAll: false,
			limit: 4,
			options: { pageSize: 100 },
		},
		connection,
	);
	expect(run.items).toHaveLength(4);
	const requests = pagesRead('/leads');
	expect(requests).toHaveLength(1);
	expect(requests[0].query.limit).toBe('4');
});

it('with Limit over several pages reads only the pages it needs', async () => {
	const run = await runNode(
		{
			resource: 'lead',
			operation: 'getMany',
			returnAll: false,
			limit: 5,
			options: { pageSize: 2 },
		},
		connection,
	);
	expect(run.items).toHaveLength(5);
	expect(pagesRead('/leads').map((request) => request.query.page)).toEqual(['1', '2', '3']);
});

it('skips and repeats nothing when leads are created during a walk', async () => {
	const seeded = sandbox.control.leads().map((lead) => lead.id);
	// Slow pages so the insertions land in the middle of the walk.
	sandbox.control.injectFault({ kind: 'latency', ms: 60 });
	const walk = runNode(
		{ resource: 'lead', operation: 'getMany', returnAll: true, options: { pageSize: 3 } },
		connection,
	);
	for (let index = 0; index < 5; index++) {
		await new Promise((resolve) => setTimeout(resolve, 90));
		await existingLead(sandbox, { name: `Novo ${index}`, emails: [{ value: `novo${index}@example.com`, label: 'x' }] });
	}
	const run = await walk;
	sandbox.control.clearFaults();
	expect(run.error).toBeUndefined();
	const ids = jsonOf(run.items).map((lead) => String(lead.id));
	expect(new Set(ids).size).toBe(ids.length);
	for (const id of seeded) expect(ids).toContain(id);
	// Whatever was added is newer, so it can only come after every seeded lead.
	expect(ids.slice(0, seeded.length).sort()).toEqual([...seeded].sort());
	const created = sandbox.control.leads().length - seeded.length;
	expect(created).toBe(5);
	expect(ids.length).toBeGreaterThan(seeded.length);
});

it('retries reads answered 503 or dropped, and ends with exactly the records the sandbox holds', async () => {
	sandbox.control.injectFault({
		kind: 'status',
		status: 503,
		count: 2,
		pathPrefix: '/api/v1/leads',
	});
	sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 2, methods: ['GET'] });
	const run = await runNodeOnClock(
		{ resource: 'lead', operation: 'getMany', returnAll: true, options: { pageSize: 5 } },
		connection,
	);
	expect(run.error).toBeUndefined();
	const ids = jsonOf(run.items).map((lead) => lead.id);
	expect([...ids].sort()).toEqual(
		sandbox.control
			.leads()
			.map((lead) => lead.id)
			.sort(),
	);
	const statuses = pagesRead('/leads').map((request) => request.status);
	expect(statuses.filter((status) => status === 503)).toHaveLength(2);
	expect(statuses.filter((status) => status === 0)).toHaveLength(2);
});

it('retries a page that is not JSON, and gives a clear error when it never is', async () => {
	sandbox.control.injectFault({ kind: 'malformed', count: 1, body: '<html>proxy error</html>' });
	const recovered = await runNodeOnClock(customFields({ returnAll: true }), connection);
	expect(recovered.error).toBeUndefined();
	expect(recovered.items).toHaveLength(6);

	sandbox.control.reset();
	sandbox.control.injectFault({ kind: 'malformed', count: 20, body: '<html>proxy error</html>' });
	const failed = await runNodeOnClock(customFields({ returnAll: true }), connection);
	expect(failed.error?.message).toMatch(/not JSON/);
	expect(pagesRead('/custom-fields')).toHaveLength(5);
});

it('ends with an error, not a loop, when an answer has no data list', async () => {
	sandbox.control.injectFault({ kind: 'malformed', count: 1, body: '{"items":[]}' });
	const run = await runNode(customFields({ returnAll: true }), connection);
	expect(run.error?.message).toMatch(/no data list/);
	expect(pagesRead('/custom-fields')).toHaveLength(1);
});

it('stops on an empty page even when meta announces a million pages', async () => {
	sandbox.control.injectFault({
		kind: 'malformed',
		count: 100,
		body: '{"data":[],"meta":{"limit":100,"count":0,"total":100000000,"page":1,"totalPages":1000000}}',
	});
	const run = await runNode(customFields({ returnAll: true }), connection);
	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(0);
	expect(pagesRead('/custom-fields')).toHaveLength(1);
});

it('stops with an error when the service returns the same page again instead of the next one', async () => {
	sandbox.control.injectFault({
		kind: 'malformed',
		count: 100,
		body: '{"data":[{"id":"a"},{"id":"b"}],"meta":{"limit":2,"count":2,"total":2000,"page":1,"totalPages":1000}}',
	});
	const run = await runNode(
		customFields({ returnAll: true, options: { pageSize: 2 } }),
		connection,
	);
	expect(run.error?.message).toMatch(/same records for page 2/);
	expect(pagesRead('/custom-fields')).toHaveLength(2);
});

it('walks pages without meta until a short page', async () => {
	sandbox.control.injectFault({
		kind: 'malformed',
		count: 1,
		body: '{"data":[{"id":"a"},{"id":"b"}]}',
	});
	sandbox.control.injectFault({ kind: 'malformed', count: 1, body: '{"data":[{"id":"c"}]}' });
	const run = await runNode(
		customFields({ returnAll: true, options: { pageSize: 2 } }),
		connection,
	);
	expect(run.error).toBeUndefined();
	expect(jsonOf(run.items).map((field) => field.id)).toEqual(['a', 'b', 'c']);
});

it('reads the credential once for a walk of many pages, as n8n would read it from its database for each', async () => {
	const { TestCredentialsHelper } = await import('../../dev/harness/credentials');
	const reads = jest.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');
	try {
		const run = await runNode(customFields({ returnAll: true, options: { pageSize: 2 } }), connection);
		expect(jsonOf(run.items)).toHaveLength(6);
		expect(pagesRead('/custom-fields')).toHaveLength(3);
		expect(reads).toHaveBeenCalledTimes(1);
	} finally {
		reads.mockRestore();
	}
});
