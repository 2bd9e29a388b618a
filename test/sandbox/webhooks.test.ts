/** Webhooks: the secret shown once, listing and deleting, signed deliveries and retries with backoff. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { startSandbox } from '../../sandbox';
import { closedUrl } from '../support/closed-port';
import { call } from '../support/service';
import { startReceiver } from './support';
import { useSandbox } from '../support/sandbox';

function verify(secret: string, raw: Buffer, signature: string): boolean {
	const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('hex'));
	const received = Buffer.from(signature);
	return expected.length === received.length && timingSafeEqual(expected, received);
}

describe('sandbox webhooks', () => {
	const { sandbox } = useSandbox({ rateLimit: false, delivery: { maxRetries: 3, baseDelayMs: 100 } });

	it('returns the secret (32 random bytes, hex) only in the response that creates the webhook', async () => {
		const created = await call(sandbox, 'POST', '/webhooks', {
			body: { name: 'Vendas', url: 'https://example.com/hook', events: ['prospection.won', 'prospection.lost'] },
		});
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({ name: 'Vendas', url: 'https://example.com/hook', events: ['prospection.won', 'prospection.lost'] });
		expect(created.body.secret).toMatch(/^[0-9a-f]{64}$/);
		const other = await call(sandbox, 'POST', '/webhooks', { body: { name: 'B', url: 'http://127.0.0.1:1/x', events: ['prospection.won'] } });
		expect(other.body.secret).not.toBe(created.body.secret);
		const listed = await call(sandbox, 'GET', '/webhooks', { query: 'limit=1&page=1' });
		expect(listed.status).toBe(200);
		expect(Object.keys(listed.body)).toEqual(['data']);
		expect(listed.body.data).toHaveLength(2);
		expect(listed.text).not.toContain(created.body.secret);
		expect(listed.body.data[0]).not.toHaveProperty('secret');
		expect(listed.body.data[0].id).toBe(created.body.id);
	});

	it('deletes a webhook, and answers 404 for an unknown one', async () => {
		const created = await call(sandbox, 'POST', '/webhooks', { body: { name: 'A', url: 'https://example.com/a', events: ['prospection.lost'] } });
		const removed = await call(sandbox, 'DELETE', `/webhooks/${created.body.id}`);
		expect(removed.status).toBe(200);
		expect((await call(sandbox, 'GET', '/webhooks')).body.data).toEqual([]);
		const again = await call(sandbox, 'DELETE', `/webhooks/${created.body.id}`);
		expect(again.status).toBe(404);
		expect(again.body.message).toBe('Webhook não encontrado.');
	});

	it('validates name, an absolute http(s) url and a non-empty events array of strings', async () => {
		const cases: Array<[unknown, string[]]> = [
			[{}, ['name', 'url', 'events']],
			[{ name: 'x', url: '/relative', events: ['prospection.won'] }, ['url']],
			[{ name: 'x', url: 'ftp://example.com', events: ['prospection.won'] }, ['url']],
			[{ name: 'x', url: 'https://example.com', events: [] }, ['events']],
			[{ name: 'x', url: 'https://example.com', events: 'prospection.won' }, ['events']],
			[{ name: 'x', url: 'https://example.com', events: ['prospection.won', 3] }, ['events[1]']],
			[{ name: 5, url: 'https://example.com', events: ['prospection.won'] }, ['name']],
		];
		for (const [body, fields] of cases) {
			const result = await call(sandbox, 'POST', '/webhooks', { body });
			expect(result.status).toBe(400);
			expect(result.body.errors.map((e: any) => e.field)).toEqual(fields);
		}
		expect(sandbox.control.webhooks()).toEqual([]);
	});

	it('delivers prospection.won to subscribed webhooks as the signed envelope, over the exact raw body', async () => {
		const receiver = await startReceiver();
		try {
			const hook = (await call(sandbox, 'POST', '/webhooks', { body: { name: 'Won', url: receiver.url, events: ['prospection.won'] } })).body;
			await call(sandbox, 'POST', '/webhooks', { body: { name: 'Lost only', url: receiver.url, events: ['prospection.lost'] } });
			const prospection = sandbox.control.prospections().find((p) => p.status === 'IN_PROGRESS')!;
			await sandbox.control.setProspectionStatus(prospection.id, 'WON');
			const [delivery] = await sandbox.control.waitForDeliveries(1, 5000);
			expect(delivery).toMatchObject({ webhookId: hook.id, event: 'prospection.won', delivered: true, test: false });
			expect(receiver.received).toHaveLength(1);
			const { headers, raw } = receiver.received[0];
			expect(headers['content-type']).toBe('application/json');
			expect(verify(hook.secret, raw, String(headers['x-signature']))).toBe(true);
			// SHA-1 no longer matches.
			expect(createHmac('sha1', hook.secret).update(raw).digest('hex')).not.toBe(headers['x-signature']);
			const envelope = JSON.parse(raw.toString('utf8'));
			expect(Object.keys(envelope).sort()).toEqual(['createdAt', 'data', 'event', 'id', 'manualRetries', 'retries', 'test']);
			expect(envelope).toMatchObject({ test: false, event: 'prospection.won', retries: 0, manualRetries: 0 });
			expect(envelope.data.prospection).toMatchObject({ id: prospection.id, status: 'WON', leadId: prospection.leadId });
			expect(envelope.data.lead.id).toBe(prospection.leadId);
			expect(new Date(envelope.createdAt).toISOString()).toBe(envelope.createdAt);
			expect(delivery.body).toBe(raw.toString('utf8'));
			expect(delivery.signature).toBe(headers['x-signature']);
		} finally {
			await receiver.close();
		}
	});

	it('raises prospection.lost, and sends test events marked test: true', async () => {
		const receiver = await startReceiver();
		try {
			const hook = (await call(sandbox, 'POST', '/webhooks', { body: { name: 'Lost', url: receiver.url, events: ['prospection.lost'] } })).body;
			const prospection = sandbox.control.prospections().find((p) => p.status === 'FROZEN')!;
			await sandbox.control.setProspectionStatus(prospection.id, 'LOST');
			await sandbox.control.sendTestEvent(hook.id);
			const deliveries = await sandbox.control.waitForDeliveries(2, 5000);
			const bodies = receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')));
			expect(bodies.map((b) => [b.event, b.test])).toEqual(
				expect.arrayContaining([['prospection.lost', false], ['prospection.lost', true]]),
			);
			expect(deliveries.every((d) => d.delivered)).toBe(true);
			for (const r of receiver.received) expect(verify(hook.secret, r.raw, String(r.headers['x-signature']))).toBe(true);
		} finally {
			await receiver.close();
		}
	});

	it('retries a failed delivery with exponential backoff; retries counts up and each attempt is signed anew', async () => {
		const receiver = await startReceiver((n) => (n < 2 ? 500 : 204));
		try {
			const hook = (await call(sandbox, 'POST', '/webhooks', { body: { name: 'Flaky', url: receiver.url, events: ['prospection.won'] } })).body;
			await sandbox.control.sendTestEvent(hook.id, 'prospection.won');
			const [delivery] = await sandbox.control.waitForDeliveries(1, 10_000);
			expect(delivery.delivered).toBe(true);
			expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 204]);
			const bodies = receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')));
			expect(bodies.map((b) => b.retries)).toEqual([0, 1, 2]);
			expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
			const signatures = receiver.received.map((r) => String(r.headers['x-signature']));
			expect(new Set(signatures).size).toBe(3);
			for (const r of receiver.received) expect(verify(hook.secret, r.raw, String(r.headers['x-signature']))).toBe(true);
			// Backoff: the second wait is longer than the first (100 ms, then 200 ms).
			const [t0, t1, t2] = receiver.received.map((r) => r.at);
			expect(t1 - t0).toBeGreaterThanOrEqual(90);
			expect(t2 - t1).toBeGreaterThanOrEqual(190);
		} finally {
			await receiver.close();
		}
	});

	it('gives up after the bounded number of retries, also on network errors', async () => {
		const receiver = await startReceiver(() => 503);
		try {
			const hook = (await call(sandbox, 'POST', '/webhooks', { body: { name: 'Down', url: receiver.url, events: ['prospection.won'] } })).body;
			const unreachable = (await call(sandbox, 'POST', '/webhooks', { body: { name: 'Gone', url: `${await closedUrl()}/hook`, events: ['prospection.won'] } })).body;
			await sandbox.control.sendTestEvent(hook.id);
			await sandbox.control.sendTestEvent(unreachable.id);
			const deliveries = await sandbox.control.waitForDeliveries(2, 10_000);
			for (const d of deliveries) {
				expect(d.delivered).toBe(false);
				expect(d.attempts).toHaveLength(4);
			}
			expect(receiver.received).toHaveLength(4);
			const failed = deliveries.find((d) => d.webhookId === unreachable.id)!;
			expect(failed.attempts.every((a) => a.status === undefined && typeof a.error === 'string')).toBe(true);
		} finally {
			await receiver.close();
		}
	});

	it('uses a configurable signature header', async () => {
		const custom = await startSandbox({ signatureHeader: 'X-Hub-Signature-256' });
		const receiver = await startReceiver();
		try {
			const hook = (await call(custom, 'POST', '/webhooks', { body: { name: 'H', url: receiver.url, events: ['prospection.won'] } })).body;
			await custom.control.sendTestEvent(hook.id);
			await custom.control.waitForDeliveries(1, 5000);
			const { headers, raw } = receiver.received[0];
			expect(headers['x-signature']).toBeUndefined();
			expect(verify(hook.secret, raw, String(headers['x-hub-signature-256']))).toBe(true);
		} finally {
			await receiver.close();
			await custom.stop();
		}
	});

	it('serves status changes, test events and deliveries through the HTTP control API', async () => {
		const receiver = await startReceiver();
		try {
			const hook = (await call(sandbox, 'POST', '/webhooks', { body: { name: 'Ctl', url: receiver.url, events: ['prospection.won'] } })).body;
			const prospection = sandbox.control.prospections().find((p) => p.status === 'IN_PROGRESS')!;
			const post = (path: string, body: unknown) =>
				fetch(`${sandbox.url}/__sandbox${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
			expect((await post(`/prospections/${prospection.id}/status`, { status: 'WON' })).status).toBe(200);
			expect((await post(`/webhooks/${hook.id}/test`, {})).status).toBe(200);
			const waited = await fetch(`${sandbox.url}/__sandbox/deliveries/wait?count=2&timeoutMs=5000`).then((r) => r.json() as Promise<any>);
			expect(waited.data).toHaveLength(2);
			const listed = await fetch(`${sandbox.url}/__sandbox/deliveries`).then((r) => r.json() as Promise<any>);
			expect(listed.data.map((d: any) => d.test).sort()).toEqual([false, true]);
			expect((await post('/prospections/pro_nope/status', { status: 'WON' })).status).toBe(404);
			expect((await post(`/prospections/${prospection.id}/status`, { status: 'DONE' })).status).toBe(400);
			expect((await post('/webhooks/wh_nope/test', {})).status).toBe(404);
			const status = await call(sandbox, 'GET', '/prospections', { query: `leadId=${prospection.leadId}&status=WON` });
			expect(status.body.data.map((p: any) => p.id)).toContain(prospection.id);
		} finally {
			await receiver.close();
		}
	});
});
