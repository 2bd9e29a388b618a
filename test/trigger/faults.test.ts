/**
 * The trigger's webhook lifecycle when the service fails: unreachable, 5xx, or a connection dropped
 * after the service committed. Activation must fail clearly and leave no webhook behind;
 * deactivation must fail clearly and the next activation must clean up. Secrets are scanned for in
 * everything the package produced.
 */
import { allLogLines, type TriggerWorkflowHandle } from '../../dev/harness';
import { outcomeOf } from '../../nodes/Prospecting/helpers/outcome';
import { closedUrl } from '../support/closed-port';
import { networkDownAfter } from '../support/service-faults';
import { failureOf, useTriggerService } from './support';

const { sandbox, trigger, remoteFor } = useTriggerService({ rateLimit: false });
/** The service unreachable. */
let unreachableUrl: string;
const produced: string[] = [];
const secrets = new Set<string>();

/** Runs a step expected to fail and returns its error, recording what a user would see of it. */
async function failure(step: Promise<unknown>): Promise<Error & { description?: string }> {
	const error = await failureOf(step);
	produced.push(error.message, String(error.description ?? ''), JSON.stringify(error), String(error.stack));
	return error;
}

function remember(workflow: TriggerWorkflowHandle) {
	for (const webhook of sandbox.control.webhooks()) secrets.add(webhook.secret);
	produced.push(...workflow.logs, JSON.stringify(workflow.deliveries.map((d) => d.items ?? null)));
}

beforeAll(async () => {
	unreachableUrl = await closedUrl();
});

describe('activation under faults', () => {
	it('service unreachable: a clear error, nothing registered', async () => {
		const workflow = trigger({ baseUrl: unreachableUrl });
		const error = await failure(workflow.activate());
		expect(error.message).toMatch(/^Could not register the webhook: the service's webhook list could not be read or cleaned up: /);
		expect(error.message).toMatch(/Could not reach the service/);
		expect(error.description).toBe('No webhook was created. Activate the workflow again once the service answers.');
		expect(outcomeOf(error)).toBe('notSent');
		expect(sandbox.control.webhooks()).toHaveLength(0);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
		remember(workflow);
	});

	it('connection dropped after the service created the webhook: it is removed again', async () => {
		const workflow = trigger();
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'], pathPrefix: '/webhooks' });
		const error = await failure(workflow.activate());
		expect(error.message).toMatch(/^Could not register the webhook with the service: /);
		expect(error.description).toMatch(/was removed again \(1\)/);
		// The service did create it...
		const posts = sandbox.control.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/webhooks'));
		expect(posts).toHaveLength(1);
		// ...and nothing is left registered, nothing kept.
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(0);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
		remember(workflow);

		expect(await workflow.activate()).toEqual({ created: true });
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(1);
		remember(workflow);
	});

	it('5xx on create: the service message reaches the user, nothing left', async () => {
		const workflow = trigger();
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 1, methods: ['POST'], pathPrefix: '/webhooks' });
		const error = await failure(workflow.activate());
		expect(error.message).toMatch(/^Could not register the webhook with the service: /);
		expect(error.description).toMatch(/No webhook was left registered/);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(0);
		remember(workflow);
	});

	it('created, then the network went down before the answer: the next activation cleans up', async () => {
		const workflow = trigger();
		const network = networkDownAfter(sandbox.control, ({ method, path }) => method === 'POST' && path.endsWith('/webhooks'));
		const error = await failure(workflow.activate());
		expect(error.message).toMatch(/^Could not register the webhook with the service: /);
		expect(error.description).toMatch(/could not be reached to check whether a webhook was left registered/);
		expect(error.description).toMatch(/next activation removes any webhook registered for this URL/);
		// The service did create it and could not be asked to remove it.
		const [orphan] = remoteFor(workflow.webhookUrl());
		expect(orphan).toBeDefined();
		expect(workflow.nodeStaticData.webhooks).toEqual({});

		network.restore();
		expect(await workflow.activate()).toEqual({ created: true });
		const now = remoteFor(workflow.webhookUrl());
		expect(now).toHaveLength(1);
		expect(now[0].id).not.toBe(orphan.id);
		remember(workflow);
	});
});

describe('Trigger activation, webhook create: slow commit and gateway answers', () => {
	it('a webhook the service registers after a gateway answered 504: a clear error, and the next activation removes it and leaves exactly one', async () => {
		const workflow = trigger();
		sandbox.control.injectFault({
			kind: 'slow-commit',
			commitAfterMs: 600,
			gatewayTimeoutMs: 100,
			count: 1,
			methods: ['POST'],
			pathPrefix: '/webhooks',
		});
		const error = await failure(workflow.activate());
		expect(error.message).toMatch(/^Could not register the webhook with the service: The answer to POST \/webhooks was lost: a gateway answered 504/);
		expect(error.description).toMatch(/The service may still register the lost webhook later: its deliveries are refused \(its secret is unknown\), and the next activation removes it/);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
		await new Promise((resolve) => setTimeout(resolve, 700));
		const [late] = remoteFor(workflow.webhookUrl());
		expect(late).toBeDefined();
		remember(workflow);

		expect(await workflow.activate()).toEqual({ created: true });
		const now = remoteFor(workflow.webhookUrl());
		expect(now).toHaveLength(1);
		expect(now[0].id).not.toBe(late.id);
		remember(workflow);
	});

	it('a 502 after the commit: the created webhook is removed again, nothing kept', async () => {
		const workflow = trigger();
		sandbox.control.injectFault({ kind: 'status', status: 502, when: 'after-commit', count: 1, methods: ['POST'], pathPrefix: '/webhooks' });
		const error = await failure(workflow.activate());
		expect(error.message).toMatch(/was lost: a gateway answered 502/);
		expect(error.description).toMatch(/was removed again \(1\)/);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(0);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
		remember(workflow);
	});
	it('a 500 after the service created the webhook: the outcome is unknown, so it is removed again and nothing is kept', async () => {
		const workflow = trigger();
		sandbox.control.injectFault({ kind: 'status', status: 500, when: 'after-commit', count: 1, methods: ['POST'], pathPrefix: '/webhooks' });
		const error = await failure(workflow.activate());
		expect(error.message).toMatch(/^Could not register the webhook with the service: /);
		expect(error.message).not.toMatch(/failed to process/);
		expect(outcomeOf(error)).toBe('unknown');
		expect(error.description).toMatch(/was removed again \(1\)/);
		expect(error.description).toMatch(/The service may still register the lost webhook later/);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(0);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
		remember(workflow);
	});

	it('a 200 HTML page after the service created the webhook: it is removed again and nothing is kept', async () => {
		const workflow = trigger();
		sandbox.control.injectFault({ kind: 'malformed', when: 'after-commit', count: 1, methods: ['POST'], pathPrefix: '/webhooks' });
		const error = await failure(workflow.activate());
		expect(error.message).toMatch(/^Could not register the webhook with the service: /);
		expect(error.description).toMatch(/was removed again \(1\)/);
		expect(error.description).toMatch(/The service may still register the lost webhook later/);
		expect(JSON.stringify(error)).not.toMatch(/manuten/i);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(0);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
		remember(workflow);
	});

	it('a created webhook answered without its secret: it is removed again and nothing is kept', async () => {
		const workflow = trigger();
		sandbox.control.injectFault({ kind: 'malformed', when: 'after-commit', body: '{"id":"wh_sem_segredo"}', count: 1, methods: ['POST'], pathPrefix: '/webhooks' });
		const error = await failure(workflow.activate());
		expect(error.message).toBe('The service created the webhook but its answer lacked the secret, so deliveries could not be verified');
		expect(error.description).toMatch(/was removed again \(1\)/);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(0);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
		remember(workflow);
	});

	it('a redirect on create: a clear error naming the Location, nothing registered', async () => {
		const workflow = trigger();
		sandbox.control.injectFault({ kind: 'redirect', status: 301, location: 'https://novo.example.com/api/v1/webhooks', count: 1, methods: ['POST'] });
		const error = await failure(workflow.activate());
		expect(error.message).toMatch(/^Could not register the webhook with the service: POST \/webhooks was redirected \(301\)/);
		expect(error.message).toContain('https://novo.example.com/api/v1/webhooks');
		expect(outcomeOf(error)).toBe('refused');
		expect(sandbox.control.webhooks()).toHaveLength(0);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
		remember(workflow);
	});
});

describe('Trigger deactivation, webhook delete: slow commit and gateway answers', () => {
	it('a delete the service applies after a gateway answered 504: a clear error, the entry stays, and the next activation registers exactly one', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		sandbox.control.injectFault({ kind: 'slow-commit', commitAfterMs: 400, gatewayTimeoutMs: 100, count: 1, methods: ['DELETE'] });
		const error = await failure(workflow.deactivate());
		expect(error.message).toMatch(new RegExp(`^Could not remove webhook ${mine.id} from the service: The answer to DELETE .* was lost: a gateway answered 504`));
		expect(error.description).toMatch(/The webhook may still be registered/);
		await new Promise((resolve) => setTimeout(resolve, 500));
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(0);

		const again = workflow.restart();
		expect(await again.activate()).toEqual({ created: true });
		const now = remoteFor(workflow.webhookUrl());
		expect(now).toHaveLength(1);
		expect(now[0].id).not.toBe(mine.id);
		remember(again);
	});
});

describe('deactivation, a lost answer', () => {
	it('a delete whose answer is lost before the service applies it: the entry stays, and the next activation reuses that webhook with its secret', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['DELETE'] });
		const error = await failure(workflow.deactivate());
		expect(outcomeOf(error)).toBe('unknown');
		expect((workflow.nodeStaticData.webhooks as Record<string, { id: string }>)[workflow.webhookUrl()].id).toBe(mine.id);

		const again = workflow.restart();
		expect(await again.activate()).toEqual({ created: false });
		expect(remoteFor(workflow.webhookUrl()).map((webhook) => webhook.id)).toEqual([mine.id]);
		remember(again);
	});
});

describe('deactivation under faults', () => {
	it('a delete the service applied behind a 500: the list shows it gone, deactivation succeeds and forgets it', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		sandbox.control.injectFault({ kind: 'status', status: 500, when: 'after-commit', count: 1, methods: ['DELETE'] });
		expect(await workflow.deactivate()).toBe(true);
		expect(sandbox.control.webhooks().some((webhook) => webhook.id === mine.id)).toBe(false);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
		remember(workflow);
	});

	it('a 200 HTML page on delete while the webhook is still listed: not counted as deleted, kept, and warned of', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		sandbox.control.injectFault({ kind: 'malformed', count: 1, methods: ['DELETE'] });
		const error = await failure(workflow.deactivate());
		expect(error.message).toMatch(new RegExp(`^Could not remove webhook ${mine.id} from the service: `));
		expect(outcomeOf(error)).toBe('unknown');
		expect((workflow.nodeStaticData.webhooks as any)[workflow.webhookUrl()].id).toBe(mine.id);
		expect(workflow.logs.filter((line) => line.startsWith(`[warn] Prospecting Trigger: webhook ${mine.id} could not be deleted`))).toHaveLength(1);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(1);
		remember(workflow);
	});

	it('a redirect on delete: a clear error naming the Location, kept, and warned of', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		sandbox.control.injectFault({ kind: 'redirect', status: 307, location: 'https://novo.example.com/', count: 1, methods: ['DELETE'] });
		const error = await failure(workflow.deactivate());
		expect(error.message).toMatch(new RegExp(`^Could not remove webhook ${mine.id} from the service: DELETE /webhooks/${mine.id} was redirected \\(307\\)`));
		expect(error.message).toContain('https://novo.example.com/');
		expect(outcomeOf(error)).toBe('refused');
		expect((workflow.nodeStaticData.webhooks as any)[workflow.webhookUrl()].id).toBe(mine.id);
		expect(workflow.logs.some((line) => line.startsWith(`[warn] Prospecting Trigger: webhook ${mine.id} could not be deleted`))).toBe(true);
		remember(workflow);
	});

	it('a delete the service applied behind a 504: the list shows it gone, deactivation succeeds and forgets it', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		sandbox.control.injectFault({ kind: 'status', status: 504, when: 'after-commit', count: 1, methods: ['DELETE'] });
		expect(await workflow.deactivate()).toBe(true);
		expect(sandbox.control.webhooks().some((webhook) => webhook.id === mine.id)).toBe(false);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
		expect(sandbox.control.requests().filter((request) => request.method === 'DELETE')).toHaveLength(1);
		expect(workflow.logs.some((line) => line.startsWith('[warn]'))).toBe(false);
		remember(workflow);
	});

	it('a lost delete whose check cannot be read: not counted as deleted, kept, and warned of', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['DELETE'] });
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 5, methods: ['GET'] });
		const error = await failure(workflow.deactivate());
		expect(error.message).toMatch(new RegExp(`^Could not remove webhook ${mine.id} from the service: The answer to DELETE .* was lost`));
		expect(outcomeOf(error)).toBe('unknown');
		expect((workflow.nodeStaticData.webhooks as any)[workflow.webhookUrl()].id).toBe(mine.id);
		expect(workflow.logs.some((line) => line.startsWith(`[warn] Prospecting Trigger: webhook ${mine.id} could not be deleted`))).toBe(true);
		remember(workflow);
	});

	it('a webhook deactivation cannot delete: n8n\'s log warns with its id and how to delete it once the workflow is gone', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		const unreachable = trigger({ baseUrl: unreachableUrl, from: workflow });
		expect(outcomeOf(await failure(unreachable.deactivate()))).toBe('notSent');
		const warnings = unreachable.logs.filter((line) => line.startsWith('[warn]'));
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain(`Prospecting Trigger: webhook ${mine.id} could not be deleted from the service when workflow "Won and lost prospections" was deactivated, and it may still send deliveries to ${workflow.webhookUrl()}`);
		expect(warnings[0]).toContain(`if the workflow is deleted, delete the webhook with the Prospecting node (Webhook → Get Many, then Webhook → Delete with id ${mine.id})`);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(1);
		remember(unreachable);
	});

	it('5xx on delete: a clear error, kept entry stays; the next activation reuses it and exactly one exists', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 1, methods: ['DELETE'] });

		const error = await failure(workflow.deactivate());
		expect(error.message).toMatch(new RegExp(`^Could not remove webhook ${mine.id} from the service: `));
		expect(error.description).toMatch(/next activation of this workflow removes or reuses it/);
		expect((workflow.nodeStaticData.webhooks as any)[workflow.webhookUrl()].id).toBe(mine.id);

		const again = workflow.restart();
		expect(await again.activate()).toEqual({ created: false });
		expect(remoteFor(workflow.webhookUrl()).map((w) => w.id)).toEqual([mine.id]);
		expect(await again.deactivate()).toBe(true);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(0);
		remember(workflow);
		remember(again);
	});

	it('service unreachable on delete: a clear error; once it is back, activation and deactivation leave it clean', async () => {
		const workflow = trigger();
		await workflow.activate();
		const unreachable = trigger({ baseUrl: unreachableUrl, from: workflow });
		const error = await failure(unreachable.deactivate());
		expect(error.message).toMatch(/^Could not remove webhook \S+ from the service: Could not reach the service/);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(1);

		const back = trigger({ from: unreachable });
		expect(await back.activate()).toEqual({ created: false });
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(1);
		expect(await back.deactivate()).toBe(true);
		expect(sandbox.control.webhooks()).toHaveLength(0);
		remember(workflow);
		remember(unreachable);
		remember(back);
	});

	it('events changed while the old webhook cannot be removed: a clear error, nothing duplicated', async () => {
		const workflow = trigger();
		await workflow.activate();
		const changed = workflow.restart({ parameters: { events: ['prospection.won'] } });
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 1, methods: ['DELETE'] });
		const error = await failure(changed.activate());
		expect(error.message).toMatch(/^Could not replace the webhook registered with the service: /);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(1);

		expect(await changed.activate()).toEqual({ created: true });
		const now = remoteFor(workflow.webhookUrl());
		expect(now).toHaveLength(1);
		expect(now[0].events).toEqual(['prospection.won']);
		remember(changed);
	});
});

describe('secrets', () => {
	it('neither the API key nor any webhook secret appears in errors, logs or outputs', () => {
		expect(secrets.size).toBeGreaterThan(0);
		expect(produced.length).toBeGreaterThan(0);
		const haystack = [...produced, ...allLogLines].join('\n');
		for (const value of [sandbox.apiKey, ...secrets]) {
			expect(haystack.includes(value)).toBe(false);
			expect(haystack.includes(encodeURIComponent(value))).toBe(false);
		}
	});
});
