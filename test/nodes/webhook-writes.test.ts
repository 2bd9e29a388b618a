/**
 * Webhook Create and Webhook Delete: the address Webhook Create takes, and both under the faults of a write: a lost
 * answer and the list read after it, a 5xx after the commit, a proxy's 200 page, n8n's Retry On Fail (the node runs
 * again in the same execution) and a retried execution (Retry from the executions list). A webhook is never created
 * twice by one item: a second one would double every delivery, and the secret of the first cannot be read again.
 */
import { outcomeOf } from '../../nodes/Prospecting/helpers/outcome';
import { descriptionOf, expectNoSecret, jsonOf, NODE_NAME, runNode } from './support';
import { useSandbox } from '../support/sandbox';
import { existingWebhook } from '../support/service';
import { faultsAfter } from '../support/service-faults';

const { sandbox, connection } = useSandbox({ rateLimit: false, dataset: { leads: 3, routines: 1 } });
const isDelete = ({ method }: { method: string }) => method === 'DELETE';
const isListRead = ({ method, path }: { method: string; path: string }) => method === 'GET' && path.startsWith('/api/v1/webhooks');

const requests = (method: string) => sandbox.control.requests().filter((request) => request.method === method);

const createWebhook = {
	resource: 'webhook',
	operation: 'create',
	name: 'Vendas',
	url: 'https://example.com/vendas',
	events: ['prospection.won'],
};

describe('Webhook Create', () => {
	it('a lost answer while the user has a webhook with the same name and URL: only the new one is named to delete', async () => {
		const older = await existingWebhook(sandbox, createWebhook);
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });
		const run = await runNode(createWebhook, connection);
		const created = sandbox.control.webhooks().find((webhook) => webhook.id !== older)!;
		expect(sandbox.control.webhooks()).toHaveLength(2);
		expect(requests('POST')).toHaveLength(2);
		expect(descriptionOf(run.error)).toContain(`The webhook was created (id ${created.id})`);
		expect(descriptionOf(run.error)).toContain(`Webhook ${older} with this name and URL existed before this item was sent and is not the one it created`);
		expect(descriptionOf(run.error)).not.toContain(`(id ${older})`);
		expect(outcomeOf(run.error)).toBe('unknown');
		expectNoSecret(run, created.secret);
	});

	it.each([500, 503] as const)(
		'a %i after the commit: the item fails as unknown, names the created webhook, and is not sent again',
		async (status) => {
			sandbox.control.injectFault({ kind: 'status', status, when: 'after-commit', count: 1, methods: ['POST'] });
			const run = await runNode(createWebhook, connection);
			const [webhook] = sandbox.control.webhooks();
			expect(run.items).toHaveLength(0);
			expect(run.error?.message).not.toMatch(/failed to process/);
			expect(outcomeOf(run.error)).toBe('unknown');
			expect(descriptionOf(run.error)).toContain(`The webhook was created (id ${webhook.id})`);
			expect(requests('POST')).toHaveLength(1);
			expectNoSecret(run, webhook.secret);
		},
	);

	it('a 503 before the commit: the item fails as unknown, says no new webhook is listed yet, and is not sent again', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 1, methods: ['POST'] });
		const run = await runNode(createWebhook, connection);
		expect(sandbox.control.webhooks()).toHaveLength(0);
		expect(outcomeOf(run.error)).toBe('unknown');
		expect(descriptionOf(run.error)).toMatch(/No new webhook with this name and URL is listed yet, but the service may still create it/);
		expect(requests('POST')).toHaveLength(1);
	});

	it('a 200 HTML page from a proxy: the item fails as unknown, nothing is reported created, and it is not sent again', async () => {
		sandbox.control.injectFault({ kind: 'malformed', count: 1, methods: ['POST'] });
		const run = await runNode(createWebhook, { ...connection, continueOnFail: true });
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json).not.toHaveProperty('id');
		expect(run.items[0].json.writeOutcome).toBe('unknown');
		expect(String(run.items[0].json.description)).toMatch(/No new webhook with this name and URL is listed yet/);
		expect(JSON.stringify(run.items[0].json)).not.toMatch(/manuten/i);
		expect(sandbox.control.webhooks()).toHaveLength(0);
		expect(requests('POST')).toHaveLength(1);
	});

	it('a 200 answer without the created record, after the commit: the item fails as unknown and names the created webhook', async () => {
		sandbox.control.injectFault({ kind: 'malformed', when: 'after-commit', body: '{"ok":true}', count: 1, methods: ['POST'] });
		const run = await runNode(createWebhook, connection);
		const [webhook] = sandbox.control.webhooks();
		expect(run.items).toHaveLength(0);
		expect(outcomeOf(run.error)).toBe('unknown');
		expect(descriptionOf(run.error)).toContain(`The webhook was created (id ${webhook.id})`);
		expect(requests('POST')).toHaveLength(1);
	});

	it('a redirect: the item fails as refused naming the Location, and nothing is created', async () => {
		sandbox.control.injectFault({ kind: 'redirect', status: 301, location: 'https://novo.example.com/api/v1/webhooks', count: 1, methods: ['POST'] });
		const run = await runNode(createWebhook, connection);
		expect(run.error?.message).toMatch(/^POST \/webhooks was redirected \(301\)/);
		expect(run.error?.message).toContain('https://novo.example.com/api/v1/webhooks');
		expect(outcomeOf(run.error)).toBe('refused');
		expect(sandbox.control.webhooks()).toHaveLength(0);
		expect(requests('POST')).toHaveLength(1);
		expectNoSecret(run, sandbox.apiKey);
	});

	it('Retry On Fail: a webhook created in the first try is returned as it was, and one whose answer was lost is never sent again but named', async () => {
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });
		const run = await runNode({ ...createWebhook, name: '={{ $json.name }}' }, {
			...connection,
			maxTries: 3,
			continueOnFail: true,
			inputItems: [{ name: 'Perdido' }, { name: 'Criado' }],
		});
		const items = jsonOf(run.items);
		const [lost, created] = sandbox.control.webhooks();
		expect(sandbox.control.webhooks().map((webhook) => webhook.name)).toEqual(['Perdido', 'Criado']);
		expect(requests('POST')).toHaveLength(2);
		expect(items).toHaveLength(2);
		// n8n ran the node again (the first item's error item asks for it): the second try speaks of the first.
		expect(String(items[0].error)).toBe(
			'The webhook "Perdido" may have been created: an earlier try of this node sent it and its answer was lost',
		);
		// Told against the list the first try read before sending: the lost one, by its id.
		expect(String(items[0].description)).toMatch(/^It was not sent again\. \(item 0, POST \/webhooks\)\nThe webhook was created \(id (\S+)\), but its secret was in the lost answer/);
		expect(String(items[0].description)).toContain(`(id ${lost.id})`);
		expect(items[1]).toMatchObject({ id: created.id, name: 'Criado', secret: created.secret });
		expect(lost.id).not.toBe(created.id);
	});

	it('Retry On Fail: a create stopped before sending (the list could not be read) is sent in the next try, once', async () => {
		// Reads are tried 5 times: the first try's list fails, the next try's succeeds.
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 5, methods: ['GET'] });
		const run = await runNode(createWebhook, { ...connection, maxTries: 3 });
		expect(run.error).toBeUndefined();
		expect(sandbox.control.webhooks()).toHaveLength(1);
		expect(run.items[0].json).toMatchObject({ id: sandbox.control.webhooks()[0].id, name: 'Vendas' });
		expect(requests('POST')).toHaveLength(1);
		expect(requests('GET').filter((request) => request.status === 503)).toHaveLength(5);
	});

	it('in a retried execution, a webhook with the same name and URL is already listed: the item fails naming it, and nothing is created', async () => {
		const older = await existingWebhook(sandbox, createWebhook);
		const run = await runNode(createWebhook, { ...connection, mode: 'retry' });
		expect(run.error?.message).toBe(
			`A webhook named "Vendas" for "https://example.com/vendas" already exists (id ${older}): not created again`,
		);
		expect(descriptionOf(run.error)).toMatch(/secret of the existing webhook was shown only when it was created and cannot be read again/);
		expect(outcomeOf(run.error)).toBe('notSent');
		expect(requests('POST')).toHaveLength(1);
		expect(sandbox.control.webhooks()).toHaveLength(1);
	});

	it('in a retried execution with no such webhook listed: the webhook is created once', async () => {
		// The same URL under another name, and the same name for another URL, are other webhooks.
		await existingWebhook(sandbox, { name: 'Outro', url: createWebhook.url });
		await existingWebhook(sandbox, { name: createWebhook.name, url: 'https://example.com/outro' });
		const run = await runNode(createWebhook, { ...connection, mode: 'retry' });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ name: 'Vendas', url: 'https://example.com/vendas' });
		expect(sandbox.control.webhooks()).toHaveLength(3);
	});

	it('in a retried execution whose check cannot be read: nothing is sent, and the item says the check failed', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 5, methods: ['GET'] });
		const run = await runNode(createWebhook, { ...connection, mode: 'retry' });
		expect(outcomeOf(run.error)).toBe('notSent');
		expect(descriptionOf(run.error)).toMatch(/The webhook was not created: this is a retried execution, which checks for the webhook first, and the list of webhooks \(GET \/webhooks\) could not be read/);
		expect(requests('POST')).toHaveLength(0);
	});

	it('the list before sending cannot be read: nothing is sent, and the item fails as not sent', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 5, methods: ['GET'] });
		const run = await runNode(createWebhook, connection);
		expect(requests('POST')).toHaveLength(0);
		expect(outcomeOf(run.error)).toBe('notSent');
		expect(descriptionOf(run.error)).toMatch(/The webhook was not created: it is checked against the list before sending, and the list of webhooks \(GET \/webhooks\) could not be read/);
	});
});

describe('Webhook Create, the address it is given', () => {
	it('a plain http:// address is taken, and the webhook created for it', async () => {
		const run = await runNode({ ...createWebhook, url: 'http://example.com/vendas' }, connection);
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ name: 'Vendas', url: 'http://example.com/vendas' });
		expect(sandbox.control.webhooks().map((webhook) => webhook.url)).toEqual(['http://example.com/vendas']);
	});

	it.each(['ftp://example.com/vendas', 'example.com/vendas'])('"%s" is refused before anything is sent', async (url) => {
		const run = await runNode({ ...createWebhook, url }, connection);
		expect(run.error?.message).toBe(`url: "${url}" is not an http:// or https:// address (item 0)`);
		expect(outcomeOf(run.error)).toBe('notSent');
		expect(sandbox.control.requests()).toEqual([]);
	});

	it('a long refused address is quoted by its first 120 characters', async () => {
		const url = `ftp://example.com/${'caminho/'.repeat(40)}`;
		const run = await runNode({ ...createWebhook, url }, connection);
		expect(run.error?.message).toBe(`url: "${url.slice(0, 120)}" is not an http:// or https:// address (item 0)`);
	});
});

describe('Webhook Create, a lost answer and the list read after it', () => {
	it('the list cannot be read after the lost answer: the item says whether the webhook was created is not known', async () => {
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });
		// The list read before sending is answered; the one read after the lost answer is moved elsewhere by a proxy.
		faultsAfter(
			sandbox.control,
			({ method, path }) => method === 'POST' && path === '/api/v1/webhooks',
			({ method }) => method === 'GET',
			{ kind: 'redirect', status: 301, location: 'https://novo.example.com/api/v1/webhooks', count: 1 },
		);
		const run = await runNode(createWebhook, connection);
		expect(outcomeOf(run.error)).toBe('unknown');
		expect(descriptionOf(run.error)).toMatch(
			/The webhook list could not be read \(GET \/webhooks was redirected \(301\).*\), so whether the webhook was created is not known\. Check with Webhook → Get Many before running this item again: a second webhook would double every delivery\./,
		);
		expect(requests('POST')).toHaveLength(1);
		expect(sandbox.control.webhooks()).toHaveLength(1);
	});

	it('two new webhooks with the name and URL are listed after the lost answer: both are named, one of them being this item\'s', async () => {
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });
		// Two items with the same name and URL: the first's answer is lost, the second's webhook is created. n8n runs
		// the node again (the first item's error item asks for it), and the first item's list then shows both.
		const run = await runNode(createWebhook, { ...connection, maxTries: 3, continueOnFail: true, inputItems: [{}, {}] });
		const items = jsonOf(run.items);
		const [lost, created] = sandbox.control.webhooks();
		expect(requests('POST')).toHaveLength(2);
		expect(items[1]).toMatchObject({ id: created.id, name: 'Vendas' });
		expect(String(items[0].description)).toContain(
			`Webhooks ${lost.id}, ${created.id} with this name and URL were created since this item was sent (another workflow may create them too); one of them is this item's, and its secret cannot be read again. Check with Webhook → Get Many.`,
		);
	});

	it('a lost answer where a webhook with the name and URL was there before: the new one is named, the older one kept', async () => {
		const older = await existingWebhook(sandbox, createWebhook);
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });
		const run = await runNode(createWebhook, connection);
		const created = sandbox.control.webhooks().find((webhook) => webhook.id !== older)!;
		expect(descriptionOf(run.error)).toContain(
			`The webhook was created (id ${created.id}), but its secret was in the lost answer and cannot be read again. Delete it and create it once more. Webhook ${older} with this name and URL existed before this item was sent and is not the one it created: keep it.`,
		);
	});
});

describe('Webhook Create, what it sends and what it says', () => {
	it('an event chosen in the list and typed again among the others is sent once (the request a dry run shows)', async () => {
		const run = await runNode(
			{ ...createWebhook, additionalFields: { otherEvents: 'prospection.lost, prospection.won' } },
			{ ...connection, manualWrites: 'dryRun', mode: 'manual' },
		);
		expect(run.output(NODE_NAME).map((item) => (item.json.request as { body: unknown }).body)).toEqual([
			{ name: 'Vendas', url: 'https://example.com/vendas', events: ['prospection.won', 'prospection.lost'] },
		]);
		expect(sandbox.control.webhooks()).toEqual([]);
	});

	it('a refusal of the create is told as it is, without what a lost answer would say', async () => {
		// A refusal any service can give (a redirect is never followed); a 4xx is told the same way.
		sandbox.control.injectFault({ kind: 'redirect', status: 301, location: 'https://novo.example.com/api/v1/webhooks', count: 1, methods: ['POST'] });
		const run = await runNode(createWebhook, connection);
		expect(outcomeOf(run.error)).toBe('refused');
		expect(descriptionOf(run.error)).not.toMatch(/lost|created since|listed yet/);
		expect(requests('GET')).toHaveLength(1);
	});

	it('in a retried execution, every webhook already there with the name and URL is named, and none is created', async () => {
		const ids = [await existingWebhook(sandbox, createWebhook), await existingWebhook(sandbox, createWebhook)];
		const run = await runNode(createWebhook, { ...connection, mode: 'retry' });
		expect(run.error?.message).toBe(`A webhook named "Vendas" for "https://example.com/vendas" already exists (id ${ids.join(', ')}): not created again`);
		expect(sandbox.control.webhooks()).toHaveLength(2);
	});
});

describe('Webhook Delete', () => {
	/** Webhooks of the account, created outside the run. */
	const webhooks = async (count: number) => {
		const ids: string[] = [];
		for (let index = 0; index < count; index++) ids.push(await existingWebhook(sandbox, { name: `Hook ${index}`, url: `https://example.com/${index}` }));
		return ids;
	};
	const deletes = (id?: string) => requests('DELETE').filter((request) => id === undefined || request.path.endsWith(`/${id}`));
	const listed = (id: string) => sandbox.control.webhooks().some((webhook) => webhook.id === id);
	const deleteWebhook = { resource: 'webhook', operation: 'delete', webhookId: '={{ $json.id }}' };

	it.each([500, 503] as const)('a %i after the commit: a read shows it gone, the item succeeds, nothing sent again', async (status) => {
		// Another webhook stays listed: the read looks for this one's id, not for any webhook.
		const [id] = await webhooks(2);
		sandbox.control.injectFault({ kind: 'status', status, when: 'after-commit', count: 1, methods: ['DELETE'] });
		const run = await runNode(deleteWebhook, { ...connection, inputItems: [{ id }] });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id, deleted: true });
		expect(listed(id)).toBe(false);
		expect(deletes()).toHaveLength(1);
	});

	it('the first delete lost (503 before the commit), the second refused: unknown, as the first may still apply, so Retry On Fail sends neither again', async () => {
		const [id] = await webhooks(1);
		// The first delete is answered 503; the one sent after it, a redirect.
		const firstLostSecondRefused = () => {
			sandbox.control.injectFault({ kind: 'status', status: 503, count: 1, methods: ['DELETE'] });
			faultsAfter(sandbox.control, isDelete, isDelete, { kind: 'redirect', status: 301, location: 'https://novo.example.com/api/v1/webhooks', count: 1 });
		};
		firstLostSecondRefused();
		const once = await runNode(deleteWebhook, { ...connection, inputItems: [{ id }] });
		expect(once.error?.message).toMatch(/was redirected \(301\)/);
		expect(outcomeOf(once.error)).toBe('unknown');
		expect(deletes()).toHaveLength(2);
		sandbox.control.clearFaults();
		firstLostSecondRefused();
		const retried = await runNode(deleteWebhook, { ...connection, maxTries: 3, inputItems: [{ id }] });
		expect(retried.error?.message).toMatch(/may not be deleted yet: an earlier try of this node sent its delete/);
		expect(descriptionOf(retried.error)).toMatch(/^It was not sent again in this execution\. A slow service may still delete it/);
		expect(deletes()).toHaveLength(4);
	});

	it('a lost delete applied late: the webhook still listed, the delete sent again meets a 404, which means the first got there', async () => {
		const [id] = await webhooks(1);
		// A gateway answers 504 after 100 ms; the service deletes the webhook at 600 ms. The read after the 504 still lists
		// it, and the second delete reaches the service only after that.
		sandbox.control.injectFault({ kind: 'slow-commit', gatewayTimeoutMs: 100, commitAfterMs: 600, count: 1, methods: ['DELETE'] });
		faultsAfter(sandbox.control, isListRead, isDelete, { kind: 'latency', ms: 1000 });
		try {
			const run = await runNode(deleteWebhook, { ...connection, inputItems: [{ id }] });
			expect(run.error).toBeUndefined();
			expect(run.items.map((item) => item.json)).toEqual([{ id, deleted: true }]);
			expect(deletes().map((request) => request.status)).toEqual([504, 404]);
		} finally {
			sandbox.control.clearFaults();
		}
	});

	it('both deletes lost, the second after the commit: a read shows it gone, and the item succeeds', async () => {
		const [id] = await webhooks(1);
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 1, methods: ['DELETE'] });
		faultsAfter(sandbox.control, isListRead, isDelete, { kind: 'status', status: 503, when: 'after-commit', count: 1 });
		const run = await runNode(deleteWebhook, { ...connection, inputItems: [{ id }] });
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json)).toEqual([{ id, deleted: true }]);
		expect(deletes().map((request) => request.status)).toEqual([503, 503]);
		expect(listed(id)).toBe(false);
	});

	it('an id typed with spaces deletes that webhook, and the output adds what the service answered to the id and "deleted"', async () => {
		const [id] = await webhooks(1);
		sandbox.control.injectFault({ kind: 'malformed', body: '{"removedAt":"2026-11-27T10:00:00Z"}', when: 'after-commit', count: 1, methods: ['DELETE'] });
		const run = await runNode(deleteWebhook, { ...connection, inputItems: [{ id: ` ${id} ` }] });
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json)).toEqual([{ id, deleted: true, removedAt: '2026-11-27T10:00:00Z' }]);
		expect(listed(id)).toBe(false);
	});

	it('a 503 before the commit: still listed, so the delete by id is sent once more, and the item succeeds', async () => {
		const [id] = await webhooks(1);
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 1, methods: ['DELETE'] });
		const run = await runNode(deleteWebhook, { ...connection, inputItems: [{ id }] });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id, deleted: true });
		expect(listed(id)).toBe(false);
		expect(deletes()).toHaveLength(2);
	});

	it('a 200 HTML page from a proxy: not reported deleted before a read shows it gone', async () => {
		const [id] = await webhooks(1);
		sandbox.control.injectFault({ kind: 'malformed', count: 1, methods: ['DELETE'] });
		const run = await runNode(deleteWebhook, { ...connection, inputItems: [{ id }] });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id, deleted: true });
		expect(listed(id)).toBe(false);
		expect(deletes()).toHaveLength(2);
	});

	it('a lost answer and a list that cannot be read after it: the item fails as unknown, saying whether it was deleted is not known', async () => {
		const [id] = await webhooks(1);
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['DELETE'] });
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 5, methods: ['GET'] });
		const run = await runNode(deleteWebhook, { ...connection, inputItems: [{ id }] });
		expect(run.error?.message).toMatch(new RegExp(`^The answer to DELETE /webhooks/${id} was lost`));
		expect(outcomeOf(run.error)).toBe('unknown');
		expect(descriptionOf(run.error)).toMatch(/The webhook list could not be read \(.*\), so whether the webhook was deleted is not known/);
		expect(deletes()).toHaveLength(1);
		expect(listed(id)).toBe(true);
	});

	it('a redirect: the item fails as refused naming the Location, and the webhook stays', async () => {
		const [id] = await webhooks(1);
		sandbox.control.injectFault({ kind: 'redirect', status: 308, location: `https://novo.example.com/api/v1/webhooks/${id}`, count: 1, methods: ['DELETE'] });
		const run = await runNode(deleteWebhook, { ...connection, inputItems: [{ id }] });
		expect(run.error?.message).toMatch(new RegExp(`^DELETE /webhooks/${id} was redirected \\(308\\)`));
		expect(run.error?.message).toContain(`https://novo.example.com/api/v1/webhooks/${id}`);
		expect(outcomeOf(run.error)).toBe('refused');
		expect(listed(id)).toBe(true);
		expect(deletes()).toHaveLength(1);
	});

	it('Retry On Fail: a deleted webhook is not deleted again, and one whose delete stayed unknown is only checked', async () => {
		const [first, second] = await webhooks(2);
		// The second's delete is lost twice before the service applies it: still listed, the item fails.
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 2, methods: ['DELETE'], pathPrefix: `/webhooks/${second}` });
		const run = await runNode(deleteWebhook, { ...connection, maxTries: 3, inputItems: [{ id: first }, { id: second }] });
		expect(run.error?.message).toBe(
			`Webhook "${second}" may not be deleted yet: an earlier try of this node sent its delete and the answer was lost`,
		);
		expect(outcomeOf(run.error)).toBe('unknown');
		expect(deletes(first)).toHaveLength(1);
		expect(deletes(second)).toHaveLength(2);
		expect(listed(first)).toBe(false);
		expect(listed(second)).toBe(true);
	});

	it('Retry On Fail: a delete still unknown at the end of a try, done by the next, is reported deleted without a third send', async () => {
		const [first, second] = await webhooks(2);
		// A slow service: each delete of the second webhook is applied 3 s after it arrives, its answer waited for 1 s.
		// The first try sends it twice and fails while it is still listed; the next try, 2 s later, finds it gone.
		sandbox.control.injectFault({ kind: 'slow-commit', commitAfterMs: 3000, count: 2, methods: ['DELETE'], pathPrefix: `/webhooks/${second}` });
		const run = await runNode(
			{ ...deleteWebhook, options: { timeout: 1 } },
			{ ...connection, maxTries: 3, waitBetweenTries: 2000, inputItems: [{ id: first }, { id: second }] },
		);
		expect(run.error).toBeUndefined();
		expect(jsonOf(run.items)).toEqual([
			{ id: first, deleted: true },
			{ id: second, deleted: true },
		]);
		expect(deletes(first)).toHaveLength(1);
		expect(listed(second)).toBe(false);
		await new Promise((resolve) => setTimeout(resolve, 1500));
		expect(deletes(second)).toHaveLength(2);
	});

	it('in a retried execution, a webhook already gone (404) counts as deleted', async () => {
		const run = await runNode(deleteWebhook, { ...connection, mode: 'retry', inputItems: [{ id: 'wh_gone' }] });
		expect(run.error).toBeUndefined();
		expect(jsonOf(run.items)).toEqual([{ id: 'wh_gone', deleted: true }]);
	});

	it('in a retried execution, a webhook still listed is deleted: the service no longer lists it', async () => {
		const id = await existingWebhook(sandbox, { name: 'Ainda aqui', url: 'https://example.com/ainda-aqui' });
		const run = await runNode(deleteWebhook, { ...connection, mode: 'retry', inputItems: [{ id }] });
		expect(run.error).toBeUndefined();
		expect(jsonOf(run.items)).toEqual([{ id, deleted: true }]);
		expect(requests('DELETE').map((request) => request.status)).toEqual([200]);
		expect(sandbox.control.webhooks().map((webhook) => webhook.id)).not.toContain(id);
	});

	it('G: a 500 before the commit, then a proxy\'s HTML 404 on the second delete while the webhook is still listed: not reported deleted, outcome unknown', async () => {
		const id = await existingWebhook(sandbox, { name: 'Proxy', url: 'https://example.com/proxy' });
		sandbox.control.injectFault({ kind: 'status', status: 500, count: 1, methods: ['DELETE'] });
		sandbox.control.injectFault({ kind: 'status', status: 404, body: '<!DOCTYPE html><html><body>404 Not Found</body></html>', contentType: 'text/html', count: 1, methods: ['DELETE'] });
		const run = await runNode(deleteWebhook, { ...connection, continueOnFail: true, inputItems: [{ id }] });
		expect(sandbox.control.webhooks().map((webhook) => webhook.id)).toContain(id);
		expect(run.items.map((item) => item.json.deleted)).toEqual([undefined]);
		expect(run.items[0].json.writeOutcome).toBe('unknown');
	});

	it('outside a retried execution, a webhook that does not exist (404) fails the item', async () => {
		const run = await runNode(deleteWebhook, { ...connection, inputItems: [{ id: 'wh_gone' }] });
		expect(run.error?.message).toBe('Webhook "wh_gone" was not found (404)');
	});
});
