/**
 * Deliveries to the Prospecting Trigger: the sandbox raises real WON and LOST events and delivers
 * them signed over HTTP to the receiver, which runs webhook() through n8n-core's WebhookContext.
 * Forged deliveries are sent to the same receiver (and, in bulk, handed to webhook() in process).
 */
import { randomBytes } from 'node:crypto';

import { allLogLines } from '../../dev/harness';
import { startSandbox } from '../../sandbox';
import type { Delivery, RunningSandbox } from '../../sandbox';
import type { DeliveryResult, TriggerWorkflowHandle } from '../../dev/harness';
import { deliver, envelope, sign, useTriggerService } from './support';

const service = useTriggerService({ delivery: { maxRetries: 0, baseDelayMs: 10 } });
const { sandbox } = service;
/** Every trigger workflow of this file and every webhook secret the sandbox issued, for the secret scan. */
const workflows: TriggerWorkflowHandle[] = [];
const secrets = new Set<string>();

function collectSecrets(target: RunningSandbox = sandbox) {
	for (const webhook of target.control.webhooks()) secrets.add(webhook.secret);
}

function trigger(parameters: Record<string, unknown> = {}, target: RunningSandbox = sandbox): TriggerWorkflowHandle {
	const workflow = service.trigger({ parameters, baseUrl: target.url, apiKey: target.apiKey });
	workflows.push(workflow);
	return workflow;
}

function inProgress(count: number, target: RunningSandbox = sandbox): string[] {
	const ids = target.control.prospections().filter((p) => p.status === 'IN_PROGRESS').map((p) => p.id);
	expect(ids.length).toBeGreaterThanOrEqual(count);
	return ids.slice(0, count);
}

function secretOf(workflow: TriggerWorkflowHandle, test = false, target: RunningSandbox = sandbox): string {
	const [webhook] = target.control.webhooks().filter((w) => w.url === workflow.webhookUrl(test ? 'manual' : 'trigger'));
	return webhook.secret;
}

// The sandbox's data is seeded again before each test: its webhooks' secrets are kept for the scan first.
afterEach(() => collectSecrets());

describe('genuine deliveries from the service', () => {
	it('a WON and a LOST prospection each start the workflow with the envelope, answered 200', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [won, lost] = inProgress(2);

		await sandbox.control.setProspectionStatus(won, 'WON');
		await sandbox.control.setProspectionStatus(lost, 'LOST');
		const sent = await sandbox.control.waitForDeliveries(2, 15_000);
		const received = await workflow.waitForDeliveries(2);

		expect(sent.map((delivery) => delivery.delivered)).toEqual([true, true]);
		expect(sent.map((delivery) => delivery.attempts.map((attempt) => attempt.status))).toEqual([[200], [200]]);
		for (const delivery of sent) {
			const match = received.find((r) => r.items?.[0].json.id === JSON.parse(delivery.body).id) as DeliveryResult;
			expect(match.status).toBe(200);
			// The item is the envelope exactly as signed and sent.
			expect(match.items!.map((item) => item.json)).toEqual([JSON.parse(delivery.body)]);
			// ...and the workflow ran with it.
			expect(match.run!.error).toBeUndefined();
			expect(match.run!.output('Prospecting Trigger').map((item) => item.json)).toEqual([JSON.parse(delivery.body)]);
		}
		const byEvent = Object.fromEntries(received.map((r) => [r.items![0].json.event, r.items![0].json]));
		expect(Object.keys(byEvent).sort()).toEqual(['prospection.lost', 'prospection.won']);
		expect((byEvent['prospection.won'] as any).data.prospection).toMatchObject({ id: won, status: 'WON' });
		expect((byEvent['prospection.lost'] as any).data.prospection).toMatchObject({ id: lost, status: 'LOST' });
		expect(Object.keys(byEvent['prospection.won']).sort()).toEqual(
			['createdAt', 'data', 'event', 'id', 'manualRetries', 'retries', 'test'],
		);
	});

	it('Output: Data Only emits the payload', async () => {
		const workflow = trigger({ options: { output: 'data' } });
		await workflow.activate();
		const [won] = inProgress(1);
		await sandbox.control.setProspectionStatus(won, 'WON');
		const [sent] = await sandbox.control.waitForDeliveries(1, 15_000);
		const [received] = await workflow.waitForDeliveries(1);
		expect(received.items!.map((item) => item.json)).toEqual([JSON.parse(sent.body).data]);
		expect((received.items![0].json as any).prospection.id).toBe(won);
	});

	it('only the subscribed event kinds reach the node', async () => {
		const workflow = trigger({ events: ['prospection.lost'] });
		await workflow.activate();
		const [won, lost] = inProgress(2);
		await sandbox.control.setProspectionStatus(won, 'WON');
		await sandbox.control.setProspectionStatus(lost, 'LOST');
		const sent = await sandbox.control.waitForDeliveries(1, 15_000);
		expect(sent.map((delivery) => delivery.event)).toEqual(['prospection.lost']);
		const received = await workflow.waitForDeliveries(1);
		expect(received.map((r) => r.items![0].json.event)).toEqual(['prospection.lost']);
	});

	it('a test event through the test URL is verified with the test secret', async () => {
		const production = trigger();
		await production.activate();
		const listening = production.restart();
		await listening.activate('manual');
		const [testWebhook] = sandbox.control.webhooks().filter((w) => w.url === production.webhookUrl('manual'));

		await sandbox.control.sendTestEvent(testWebhook.id, 'prospection.won');
		const [sent] = await sandbox.control.waitForDeliveries(1, 15_000);
		const [received] = await listening.waitForDeliveries(1);
		expect(received.mode).toBe('manual');
		expect(received.status).toBe(200);
		expect(received.items![0].json).toMatchObject({ test: true, event: 'prospection.won', id: JSON.parse(sent.body).id });
		expect(production.deliveries).toHaveLength(0);

		// The production URL does not accept what was signed for the test URL.
		const replayed = await deliver(production.webhookUrl(), sent.body, { 'x-signature': sent.signature });
		expect(replayed.status).toBe(401);
	});

	it('Include Test Deliveries off: a test delivery is acknowledged and starts nothing', async () => {
		const workflow = trigger({ options: { includeTestDeliveries: false } });
		await workflow.activate();
		const [webhook] = sandbox.control.webhooks().filter((w) => w.url === workflow.webhookUrl());
		await sandbox.control.sendTestEvent(webhook.id);
		const [sent] = await sandbox.control.waitForDeliveries(1, 15_000);
		const [received] = await workflow.waitForDeliveries(1);
		expect(sent.delivered).toBe(true);
		expect(received.status).toBe(200);
		expect(received.items).toBeUndefined();
		expect(JSON.parse(received.body)).toEqual({ received: true, ignored: 'test delivery' });
	});
});

describe('repeated deliveries', () => {
	async function firstDelivery(workflow: TriggerWorkflowHandle): Promise<Delivery> {
		await workflow.activate();
		const [won] = inProgress(1);
		await sandbox.control.setProspectionStatus(won, 'WON');
		const [sent] = await sandbox.control.waitForDeliveries(1, 15_000);
		await workflow.waitForDeliveries(1);
		return sent;
	}

	it('the same event id again is acknowledged and dropped, also after a restart', async () => {
		const workflow = trigger();
		const sent = await firstDelivery(workflow);
		const again = await deliver(workflow.webhookUrl(), sent.body, { 'x-signature': sent.signature });
		expect(again.status).toBe(200);
		expect(JSON.parse(again.text)).toEqual({ received: true, ignored: 'repeated delivery' });

		// A retry carries a new `retries` count, so a new body and signature, but the same event id.
		const retry = JSON.stringify({ ...JSON.parse(sent.body), retries: 1 });
		const secret = secretOf(workflow);
		const restarted = workflow.restart();
		await restarted.activate();
		const retried = await deliver(workflow.webhookUrl(), retry, { 'x-signature': sign(secret, retry) });
		expect(retried.status).toBe(200);
		expect(JSON.parse(retried.text).ignored).toBe('repeated delivery');
		await restarted.idle();
		expect(restarted.deliveries.every((d) => d.items === undefined)).toBe(true);
		expect(workflow.deliveries.filter((d) => d.items !== undefined)).toHaveLength(1);
	});

	it('two copies of one event arriving at the same time start one execution', async () => {
		const workflow = trigger();
		await workflow.activate();
		const body = envelope();
		const signature = sign(secretOf(workflow), body);
		const answers = await Promise.all([1, 2, 3].map(() => deliver(workflow.webhookUrl(), body, { 'x-signature': signature })));
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
		await workflow.waitForDeliveries(3);
		expect(workflow.deliveries.filter((d) => d.items !== undefined)).toHaveLength(1);
		expect(answers.filter((answer) => answer.text.includes('repeated delivery'))).toHaveLength(2);
	});

	it('with Ignore Repeated Deliveries off, each delivery runs', async () => {
		const workflow = trigger({ options: { ignoreRepeatedDeliveries: false } });
		const sent = await firstDelivery(workflow);
		const again = await deliver(workflow.webhookUrl(), sent.body, { 'x-signature': sent.signature });
		expect(again.status).toBe(200);
		await workflow.waitForDeliveries(2);
		expect(workflow.deliveries.map((d) => d.items?.[0].json.id)).toEqual([JSON.parse(sent.body).id, JSON.parse(sent.body).id]);
	});
});

describe('forged and altered deliveries are refused with 401 and start nothing', () => {
	let workflow: TriggerWorkflowHandle;
	let secret: string;

	beforeEach(async () => {
		workflow = trigger();
		await workflow.activate();
		secret = secretOf(workflow);
	});

	async function expectRefused(body: Buffer | string, headers: Record<string, string>) {
		const before = workflow.deliveries.length;
		const answer = await deliver(workflow.webhookUrl(), body, headers);
		await workflow.idle();
		expect(answer.status).toBe(401);
		expect(JSON.parse(answer.text)).toEqual({ message: 'Delivery signature missing or invalid' });
		const delivery = workflow.deliveries[before];
		expect(delivery.status).toBe(401);
		expect(delivery.items).toBeUndefined();
		expect(delivery.run).toBeUndefined();
	}

	async function expectAccepted(body: string, headers: Record<string, string>) {
		const before = workflow.deliveries.length;
		const answer = await deliver(workflow.webhookUrl(), body, headers);
		await workflow.idle();
		expect(answer.status).toBe(200);
		expect(workflow.deliveries[before].items!.map((item) => item.json)).toEqual([JSON.parse(body)]);
	}

	it('control: a correctly signed delivery is accepted (bare hex)', async () => {
		const body = envelope();
		await expectAccepted(body, { 'x-signature': sign(secret, body) });
	});

	it('accepts uppercase hex and a sha256= prefix (any case), in any header', async () => {
		let body = envelope();
		await expectAccepted(body, { 'x-signature': sign(secret, body).toUpperCase() });
		body = envelope();
		await expectAccepted(body, { 'x-signature': `sha256=${sign(secret, body)}` });
		body = envelope();
		await expectAccepted(body, { 'X-Hub-Signature-256': `SHA256=${sign(secret, body)}` });
	});

	it('wrong secret', async () => {
		const body = envelope();
		await expectRefused(body, { 'x-signature': sign('not-the-secret', body) });
		await expectRefused(body, { 'x-signature': sign(randomBytes(32).toString('hex'), body) });
	});

	it('missing signature header', async () => {
		await expectRefused(envelope(), {});
	});

	it('truncated or extended hex', async () => {
		const body = envelope();
		const hex = sign(secret, body);
		await expectRefused(body, { 'x-signature': hex.slice(0, -1) });
		await expectRefused(body, { 'x-signature': hex.slice(0, 32) });
		await expectRefused(body, { 'x-signature': `${hex}0` });
		await expectRefused(body, { 'x-signature': `${hex}${hex}` });
	});

	it('SHA-1 signature (the old algorithm)', async () => {
		const body = envelope();
		await expectRefused(body, { 'x-signature': sign(secret, body, 'sha1') });
		await expectRefused(body, { 'x-signature': `sha1=${sign(secret, body, 'sha1')}` });
	});

	it('body changed by one byte after signing', async () => {
		const body = envelope();
		const hex = sign(secret, body);
		const changed = Buffer.from(body);
		changed[changed.length - 3] ^= 1;
		await expectRefused(changed, { 'x-signature': hex });
		await expectRefused(body.replace('prospection.won', 'prospection.wom'), { 'x-signature': hex });
	});

	it('same JSON with other whitespace or key order than the signed bytes', async () => {
		const body = envelope();
		const hex = sign(secret, body);
		const parsed = JSON.parse(body);
		await expectRefused(JSON.stringify(parsed, null, 2), { 'x-signature': hex });
		await expectRefused(`${body}\n`, { 'x-signature': hex });
		const { id, ...rest } = parsed;
		await expectRefused(JSON.stringify({ ...rest, id }), { 'x-signature': hex });
	});

	it('a signature in another header when Signature Header is set', async () => {
		const pinned = trigger({ options: { signatureHeader: 'X-Signature' } });
		await pinned.activate();
		const pinnedSecret = secretOf(pinned);
		const body = envelope();
		const refused = await deliver(pinned.webhookUrl(), body, { 'x-other-signature': sign(pinnedSecret, body) });
		expect(refused.status).toBe(401);
		const accepted = await deliver(pinned.webhookUrl(), body, { 'x-signature': sign(pinnedSecret, body) });
		expect(accepted.status).toBe(200);
		await pinned.idle();
		expect(pinned.deliveries.map((d) => d.status)).toEqual([401, 200]);
	});

	it('no secret kept: even a correctly signed delivery is refused', async () => {
		const staticData = workflow.staticData;
		delete ((staticData['node:Prospecting Trigger'] as any).webhooks[workflow.webhookUrl()] as any).secret;
		const withoutSecret = service.trigger({ from: workflow, staticData });
		const body = envelope();
		const delivery = await withoutSecret.deliver({ headers: { 'x-signature': sign(secret, body) }, rawBody: body });
		expect(delivery.status).toBe(401);
		expect(delivery.items).toBeUndefined();
	});

	it('a verified body that is not a JSON object is answered 400 and starts nothing', async () => {
		for (const body of ['[1,2]', 'not json', '"text"']) {
			const delivery = await workflow.deliver({ headers: { 'x-signature': sign(secret, body) }, rawBody: body });
			expect(delivery.status).toBe(400);
			expect(delivery.items).toBeUndefined();
		}
	});

	it('an unexpected failure inside the node answers 500 and starts nothing', async () => {
		const broken = trigger({ options: { signatureHeader: '={{ $("No such node").item.json.header }}' } });
		await broken.activate();
		const body = envelope();
		const delivery = await broken.deliver({ headers: { 'x-signature': sign(secretOf(broken), body) }, rawBody: body });
		expect(delivery.status).toBe(500);
		expect(JSON.parse(delivery.body)).toEqual({ message: 'Delivery could not be processed' });
		expect(delivery.items).toBeUndefined();
		expect(broken.logs.some((line) => line.includes('could not process a delivery (500)'))).toBe(true);
	});

	it('oversized bodies: forged ones refused, a genuine one accepted, no crash', async () => {
		// JSON, so that it reaches the node: n8n answers an unparsable JSON body 422 before any node runs.
		const big = Buffer.from(JSON.stringify('a'.repeat(24 * 1024 * 1024)));
		await expectRefused(big, { 'x-signature': sign('guess', big) });
		const largeEnvelope = envelope({ data: { note: 'x'.repeat(6 * 1024 * 1024) } });
		await expectAccepted(largeEnvelope, { 'x-signature': sign(secret, largeEnvelope) });
		// An oversized header is refused too.
		await expectRefused(envelope(), { 'x-signature': 'a'.repeat(12 * 1024) });
	});

	it('10,000 random forged deliveries in process: none accepted, no execution', async () => {
		const genuine = envelope();
		const genuineHex = sign(secret, genuine);
		const headerNames = ['x-signature', 'X-Signature', 'signature', 'x-hub-signature-256', 'x-webhook-signature'];
		const prefixes = ['', 'sha256=', 'SHA256=', 'sha1=', 'v1='];
		let accepted = 0;
		const statuses = new Set<number>();
		for (let i = 0; i < 10_000; i++) {
			const variant = i % 5;
			let body: Buffer | string;
			let value: string;
			if (variant === 0) {
				// The genuine body with a random 64-hex signature.
				body = genuine;
				value = randomBytes(32).toString('hex');
			} else if (variant === 1) {
				// A random body with the genuine body's signature.
				body = randomBytes(1 + (i % 512));
				value = genuineHex;
			} else if (variant === 2) {
				// The genuine signature with one hex digit flipped.
				body = genuine;
				const at = i % 64;
				const flipped = ((parseInt(genuineHex[at], 16) + 1 + (i % 15)) % 16).toString(16);
				value = genuineHex.slice(0, at) + flipped + genuineHex.slice(at + 1);
			} else if (variant === 3) {
				// Signed with a random key.
				body = envelope();
				value = sign(randomBytes(16).toString('hex'), body);
			} else {
				// Random lengths and characters.
				body = genuine;
				value = randomBytes(1 + (i % 80)).toString(i % 2 ? 'hex' : 'base64');
			}
			const headers = { [headerNames[i % headerNames.length]]: prefixes[i % prefixes.length] + value };
			const delivery = await workflow.deliver({ headers, rawBody: body });
			statuses.add(delivery.status);
			if (delivery.items !== undefined || delivery.status === 200) accepted += 1;
		}
		expect(accepted).toBe(0);
		expect([...statuses]).toEqual([401]);
		// The genuine delivery is still accepted afterwards: nothing about it was remembered.
		const afterwards = await workflow.deliver({ headers: { 'x-signature': genuineHex }, rawBody: genuine });
		expect(afterwards.status).toBe(200);
		expect(afterwards.items).toHaveLength(1);
	});
});

describe('a service that signs in another header', () => {
	let custom: RunningSandbox;

	beforeAll(async () => {
		custom = await startSandbox({ signatureHeader: 'X-Prospecting-Signature', delivery: { maxRetries: 0, baseDelayMs: 10 } });
	});

	afterAll(async () => {
		await custom?.stop();
	});

	it.each([
		['detected with no header configured', {}, 200],
		['read from the configured header', { signatureHeader: 'x-prospecting-signature' }, 200],
		['refused when another header is configured', { signatureHeader: 'x-signature' }, 401],
	])('%s', async (_label, options, status) => {
		collectSecrets(custom);
		custom.control.reset();
		const workflow = trigger({ options }, custom);
		await workflow.activate();
		const [won] = inProgress(1, custom);
		await custom.control.setProspectionStatus(won, 'WON');
		const [sent] = await custom.control.waitForDeliveries(1, 15_000);
		const [received] = await workflow.waitForDeliveries(1);
		expect(received.status).toBe(status);
		expect(sent.attempts[0].status).toBe(status);
		expect(received.items?.length ?? 0).toBe(status === 200 ? 1 : 0);
		collectSecrets(custom);
		await workflow.deactivate();
	});
});

describe('secrets', () => {
	it('no webhook secret and no API key in any output, answer, run or log line of this file', () => {
		collectSecrets();
		expect(secrets.size).toBeGreaterThan(5);
		const produced: string[] = [...allLogLines];
		for (const workflow of workflows) {
			produced.push(...workflow.logs);
			for (const delivery of workflow.deliveries) {
				produced.push(delivery.body, JSON.stringify(delivery.items ?? null), String(delivery.error?.message ?? ''));
				if (delivery.run) produced.push(JSON.stringify(delivery.run.run.data.resultData), ...delivery.run.logs);
			}
		}
		expect(produced.some((line) => line.includes('rejected a delivery (401)'))).toBe(true);
		const haystack = produced.join('\n');
		for (const value of [sandbox.apiKey, ...secrets]) {
			expect(haystack.includes(value)).toBe(false);
			expect(haystack.includes(encodeURIComponent(value))).toBe(false);
		}
	});
});
