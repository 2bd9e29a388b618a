/**
 * Webhook → Get Many is how a user finds webhooks left behind by a deleted workflow (docs/trigger.md) before deleting
 * them. The service returns every webhook in one answer; Limit is applied by the node.
 */
import { jsonOf, runNode } from '../nodes/support';
import { useSandbox } from '../support/sandbox';

const { connection } = useSandbox({ rateLimit: false });

async function createWebhook(name: string): Promise<unknown> {
	const created = await runNode(
		{ resource: 'webhook', operation: 'create', name, url: `https://example.com/${name}`, events: ['prospection.won'] },
		connection,
	);
	expect(created.error).toBeUndefined();
	return created.items[0].json.id;
}

describe('Webhook → Get Many', () => {
	it('returns the first Limit webhooks when Return All is off, and every one when it is on', async () => {
		const ids = [await createWebhook('first'), await createWebhook('second'), await createWebhook('third')];

		const limited = await runNode({ resource: 'webhook', operation: 'getMany', returnAll: false, limit: 2 }, connection);
		expect(limited.error).toBeUndefined();
		expect(jsonOf(limited.items).map((webhook) => webhook.id)).toEqual(ids.slice(0, 2));

		const all = await runNode({ resource: 'webhook', operation: 'getMany', returnAll: true, limit: 2 }, connection);
		expect(jsonOf(all.items).map((webhook) => webhook.id)).toEqual(ids);
	});
});
