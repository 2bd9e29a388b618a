/**
 * What Webhook Create tells its user: which addresses it takes, and after a lost answer, what the list of webhooks
 * shows about the one this item may have created (its secret was in that answer and cannot be read again).
 */
import { outcomeOf } from '../../nodes/Prospecting/helpers/outcome';
import { jsonOf, NODE_NAME, runNode } from './support';
import { useSandbox } from '../support/sandbox';

/** Called with each request the sandbox answers, as it answers it. */
let onRequest: ((line: string) => void) | undefined;
const { sandbox, connection } = useSandbox({ rateLimit: false, dataset: { leads: 3, routines: 1 }, log: (line) => onRequest?.(line) });
afterEach(() => (onRequest = undefined));

const description = (error: unknown) => String((error as { description?: unknown })?.description ?? '');
const requests = (method: string) => sandbox.control.requests().filter((request) => request.method === method);

const createWebhook = {
	resource: 'webhook',
	operation: 'create',
	name: 'Vendas',
	url: 'https://example.com/vendas',
	events: ['prospection.won'],
};

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

/** A webhook with the item's name and URL that the user already has, created outside the run. */
async function existingWebhook(): Promise<string> {
	const response = await fetch(`${sandbox.url}/api/v1/webhooks?apiKey=${encodeURIComponent(sandbox.apiKey)}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name: createWebhook.name, url: createWebhook.url, events: createWebhook.events }),
	});
	return ((await response.json()) as { id: string }).id;
}

describe('Webhook Create, a lost answer and the list read after it', () => {
	it('the list cannot be read after the lost answer: the item says whether the webhook was created is not known', async () => {
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });
		// The list read before sending is answered; the one read after the lost answer is moved elsewhere by a proxy.
		onRequest = (line) => {
			if (line.startsWith('POST /api/v1/webhooks')) {
				sandbox.control.injectFault({ kind: 'redirect', status: 301, location: 'https://novo.example.com/api/v1/webhooks', count: 1, methods: ['GET'] });
			}
		};
		const run = await runNode(createWebhook, connection);
		expect(outcomeOf(run.error)).toBe('unknown');
		expect(description(run.error)).toMatch(
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
		const older = await existingWebhook();
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });
		const run = await runNode(createWebhook, connection);
		const created = sandbox.control.webhooks().find((webhook) => webhook.id !== older)!;
		expect(description(run.error)).toContain(
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
		expect(description(run.error)).not.toMatch(/lost|created since|listed yet/);
		expect(requests('GET')).toHaveLength(1);
	});

	it('in a retried execution, every webhook already there with the name and URL is named, and none is created', async () => {
		const ids = [await existingWebhook(), await existingWebhook()];
		const run = await runNode(createWebhook, { ...connection, mode: 'retry' });
		expect(run.error?.message).toBe(`A webhook named "Vendas" for "https://example.com/vendas" already exists (id ${ids.join(', ')}): not created again`);
		expect(sandbox.control.webhooks()).toHaveLength(2);
	});
});
