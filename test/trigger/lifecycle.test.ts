/**
 * Webhook lifecycle of the Prospecting Trigger against the sandbox: checkExists / create / delete
 * run through n8n-core's HookContext with real HTTP, as n8n runs them on activation, on
 * "listen for test event" and on deactivation.
 */
import { call, existingWebhook } from '../support/service';
import { useTriggerService } from './support';

const { sandbox, trigger, remoteFor } = useTriggerService({ rateLimit: false });
/** A webhook of the same account for another URL: no step of the trigger may touch it. */
let foreign: { id: string; url: string };

function writes(method: string) {
	return sandbox.control.requests().filter((request) => request.method === method && request.path.includes('/webhooks'));
}

beforeEach(async () => {
	const url = 'https://crm.example.com/hooks/prospecting';
	foreign = { id: await existingWebhook(sandbox, { name: 'CRM sync (not n8n)', url }), url };
});

afterEach(() => {
	// The other webhook of the account is untouched by every scenario.
	const still = sandbox.control.webhooks().filter((webhook) => webhook.id === foreign.id);
	expect(still).toHaveLength(1);
	expect(still[0].url).toBe(foreign.url);
	expect(still[0].events).toEqual(['prospection.won']);
});

describe('activation', () => {
	it('registers exactly one webhook with this node\'s URL and events, keeping its id and secret', async () => {
		const workflow = trigger();
		expect(await workflow.activate()).toEqual({ created: true });

		const mine = remoteFor(workflow.webhookUrl());
		expect(mine).toHaveLength(1);
		expect([...mine[0].events].sort()).toEqual(['prospection.lost', 'prospection.won']);
		expect(mine[0].name).toBe('n8n: Won and lost prospections / Prospecting Trigger');

		const kept = workflow.nodeStaticData.webhooks as Record<string, any>;
		expect(Object.keys(kept)).toEqual([workflow.webhookUrl()]);
		expect(kept[workflow.webhookUrl()]).toMatchObject({ id: mine[0].id, secret: mine[0].secret, test: false });
		expect(workflow.webhookUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/[0-9a-f-]{36}\/webhook$/);
	});

	it('activating again, and after a restart, reuses the same webhook', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [first] = remoteFor(workflow.webhookUrl());

		expect(await workflow.activate()).toEqual({ created: false });
		const restarted = workflow.restart();
		expect(await restarted.activate()).toEqual({ created: false });

		expect(remoteFor(workflow.webhookUrl()).map((webhook) => webhook.id)).toEqual([first.id]);
		expect(writes('POST')).toHaveLength(2); // the foreign webhook and ours, nothing more
	});

	it('recreates the webhook when it was deleted in the service by hand', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [first] = remoteFor(workflow.webhookUrl());
		expect((await call(sandbox, 'DELETE', `/webhooks/${first.id}`)).status).toBeLessThan(300);

		expect(await workflow.restart().activate()).toEqual({ created: true });
		const now = remoteFor(workflow.webhookUrl());
		expect(now).toHaveLength(1);
		expect(now[0].id).not.toBe(first.id);
	});

	it('replaces the webhook when the user changed the events', async () => {
		const workflow = trigger({ parameters: { events: ['prospection.won'] } });
		await workflow.activate();
		const [first] = remoteFor(workflow.webhookUrl());
		expect(first.events).toEqual(['prospection.won']);

		const changed = workflow.restart({ parameters: { events: ['prospection.won'], otherEvents: 'lead.created' } });
		expect(await changed.activate()).toEqual({ created: true });
		const now = remoteFor(workflow.webhookUrl());
		expect(now).toHaveLength(1);
		expect(now[0].id).not.toBe(first.id);
		expect([...now[0].events].sort()).toEqual(['lead.created', 'prospection.won']);
		expect(sandbox.control.webhooks().some((webhook) => webhook.id === first.id)).toBe(false);
	});

	it('replaces, never reuses, a kept webhook whose secret is missing from static data', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [first] = remoteFor(workflow.webhookUrl());

		const staticData = workflow.staticData;
		const nodeData = staticData['node:Prospecting Trigger'] as any;
		delete nodeData.webhooks[workflow.webhookUrl()].secret;
		const withoutSecret = trigger({ from: workflow, staticData });
		expect(await withoutSecret.activate()).toEqual({ created: true });

		const now = remoteFor(workflow.webhookUrl());
		expect(now).toHaveLength(1);
		expect(now[0].id).not.toBe(first.id);
		expect((withoutSecret.nodeStaticData.webhooks as any)[workflow.webhookUrl()].secret).toBe(now[0].secret);
	});

	it('replaces a stray webhook that already points at this node\'s URL (its secret is unknown)', async () => {
		const workflow = trigger();
		const stray = await existingWebhook(sandbox, { name: 'left over', url: workflow.webhookUrl() });
		expect(await workflow.activate()).toEqual({ created: true });

		const now = remoteFor(workflow.webhookUrl());
		expect(now).toHaveLength(1);
		expect(now[0].id).not.toBe(stray);
	});

	it('names the webhook after the workflow, cut to 120 characters with an ellipsis when longer', async () => {
		// "n8n: " and " / Prospecting Trigger" take 27 characters of the 120.
		const fits = trigger({ workflowName: `Leads ${'w'.repeat(87)}` });
		const longer = trigger({ workflowName: `Leads ${'w'.repeat(88)}` });
		await fits.activate();
		await longer.activate();

		const [whole] = remoteFor(fits.webhookUrl());
		expect(whole.name).toBe(`n8n: Leads ${'w'.repeat(87)} / Prospecting Trigger`);
		expect(whole.name).toHaveLength(120);
		const [cut] = remoteFor(longer.webhookUrl());
		expect(cut.name).toBe(`n8n: Leads ${'w'.repeat(88)} / Prospecting Trigg…`);
		expect(cut.name).toHaveLength(120);
	});

	it('reusing the kept webhook, removes a stray one another tool registered for the same URL', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		const stray = await existingWebhook(sandbox, { name: 'registered by hand', url: workflow.webhookUrl() });

		expect(await workflow.restart().activate()).toEqual({ created: false });
		expect(remoteFor(workflow.webhookUrl()).map((webhook) => webhook.id)).toEqual([mine.id]);
		expect(sandbox.control.webhooks().some((webhook) => webhook.id === stray)).toBe(false);
	});

	it('refuses an empty event choice before any call to the service', async () => {
		const workflow = trigger({ parameters: { events: [], otherEvents: ' , ' } });
		const before = sandbox.control.requests().length;
		await expect(workflow.activate()).rejects.toThrow('Events: Choose at least one event in "Events" or "Other Events"');
		expect(sandbox.control.requests().length).toBe(before);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(0);
	});
});

describe('test URL and production URL', () => {
	it('live side by side with their own secrets, and removing one leaves the other', async () => {
		const production = trigger();
		await production.activate();
		// "Listen for test event" works on a copy of the saved workflow, static data included.
		const listening = production.restart();
		expect(await listening.activate('manual')).toEqual({ created: true });

		const live = remoteFor(production.webhookUrl());
		const test = remoteFor(production.webhookUrl('manual'));
		expect(live).toHaveLength(1);
		expect(test).toHaveLength(1);
		expect(test[0].secret).not.toBe(live[0].secret);
		expect(test[0].name).toMatch(/^n8n \(test\): /);

		const keptByTest = listening.nodeStaticData.webhooks as Record<string, any>;
		expect(keptByTest[production.webhookUrl()].id).toBe(live[0].id);
		expect(keptByTest[production.webhookUrl('manual')]).toMatchObject({ id: test[0].id, test: true });

		expect(await listening.deactivate('manual')).toBe(true);
		expect(remoteFor(production.webhookUrl('manual'))).toHaveLength(0);
		expect(remoteFor(production.webhookUrl()).map((webhook) => webhook.id)).toEqual([live[0].id]);
		// The active workflow's own static data never saw the test registration.
		expect(Object.keys(production.nodeStaticData.webhooks as object)).toEqual([production.webhookUrl()]);
		expect(await production.activate()).toEqual({ created: false });
	});
});

describe('deactivation', () => {
	it('deletes the webhook and forgets it', async () => {
		const workflow = trigger();
		await workflow.activate();
		expect(await workflow.deactivate()).toBe(true);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(0);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
	});

	it('counts a webhook already gone (404) as deleted', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		await call(sandbox, 'DELETE', `/webhooks/${mine.id}`);

		expect(await workflow.deactivate()).toBe(true);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
		const deletes = writes('DELETE').filter((request) => request.path.endsWith(mine.id));
		// The delete by hand, then the node's, answered 404 and taken as success.
		expect(deletes).toHaveLength(2);
		expect(deletes[1].status).toBe(404);
	});

	it('a delete whose answer was lost while other webhooks of the account remain: the list shows it gone, deactivation succeeds', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		sandbox.control.injectFault({ kind: 'status', status: 504, when: 'after-commit', count: 1, methods: ['DELETE'] });

		expect(await workflow.deactivate()).toBe(true);
		expect(sandbox.control.webhooks().map((webhook) => webhook.id)).toEqual([foreign.id]);
		expect(sandbox.control.webhooks().some((webhook) => webhook.id === mine.id)).toBe(false);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
	});

	it.each([
		['without an id', undefined],
		['with an empty id', ''],
	])('a kept entry %s is forgotten without calling the service; the next activation replaces what is left', async (_, id) => {
		const workflow = trigger();
		await workflow.activate();
		const [left] = remoteFor(workflow.webhookUrl());
		const staticData = workflow.staticData;
		const entry = (staticData['node:Prospecting Trigger'] as any).webhooks[workflow.webhookUrl()];
		if (id === undefined) delete entry.id;
		else entry.id = id;
		const damaged = trigger({ from: workflow, staticData });

		const before = sandbox.control.requests().length;
		expect(await damaged.deactivate()).toBe(true);
		expect(sandbox.control.requests().length).toBe(before);
		expect(damaged.nodeStaticData.webhooks).toEqual({});

		expect(await damaged.activate()).toEqual({ created: true });
		const now = remoteFor(workflow.webhookUrl());
		expect(now).toHaveLength(1);
		expect(now[0].id).not.toBe(left.id);
	});

	it('with nothing kept, succeeds without calling the service', async () => {
		const workflow = trigger();
		const before = sandbox.control.requests().length;
		expect(await workflow.deactivate()).toBe(true);
		expect(sandbox.control.requests().length).toBe(before);
	});
});
