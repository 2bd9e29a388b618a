/**
 * Type versions of the Prospecting Trigger. 1.1 exists only so that n8n takes its faster webhook
 * path (at version 1, n8n evaluates an expression for every request to a webhook start node); a
 * workflow saved with version 1 keeps working, and both versions treat every delivery alike.
 */
import { randomUUID } from 'node:crypto';

import { ProspectingTrigger } from '../../nodes/Prospecting/ProspectingTrigger.node';
import { deliver, envelope, sign, useTriggerService } from './support';

const { sandbox, trigger, remoteFor } = useTriggerService({ delivery: { maxRetries: 0, baseDelayMs: 10 } });

/** A LOST prospection's event. */
const lost = (id: string) =>
	envelope({ id, event: 'prospection.lost', data: { prospection: { id: 'pr_v', status: 'LOST', leadId: 'ld_v', createdAt: '2026-01-01T00:00:00.000Z' }, lead: { id: 'ld_v' } } });

async function post(url: string, body: string, signature: string): Promise<{ status: number; body: unknown }> {
	const { status, text } = await deliver(url, body, { 'x-signature': signature });
	return { status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** A genuine delivery, the same event again, the same event after a restart, and a forged one. */
async function outcomes(typeVersion: number) {
	sandbox.control.reset();
	const workflow = trigger({ typeVersion });
	await workflow.activate();
	const [hook] = remoteFor(workflow.webhookUrl());
	const id = randomUUID();
	const body = lost(id);
	const first = await post(workflow.webhookUrl(), body, sign(hook.secret, body));
	const again = await post(workflow.webhookUrl(), body, sign(hook.secret, body));
	const restarted = workflow.restart();
	await restarted.activate();
	const afterRestart = await post(workflow.webhookUrl(), body, sign(hook.secret, body));
	const forgedBody = lost(randomUUID());
	const forged = await post(workflow.webhookUrl(), forgedBody, sign('not-the-secret', forgedBody));
	await workflow.idle();
	await restarted.idle();
	const emitted = [...workflow.deliveries, ...restarted.deliveries].flatMap((d) => (d.items ?? []).map((item) => item.json.id));
	return {
		statuses: [first.status, again.status, afterRestart.status, forged.status],
		answers: [again.body, afterRestart.body, forged.body],
		emitted: emitted.map((emittedId) => (emittedId === id ? 'the event' : emittedId)),
	};
}

describe('type versions', () => {
	it('offers 1 and 1.1 and places new nodes at 1.1', () => {
		const { description } = new ProspectingTrigger();
		expect(description.version).toEqual([1, 1.1]);
		expect(description.defaultVersion).toBe(1.1);
	});

	it.each([1, 1.1])('version %s: a genuine delivery runs once, repeats (also after a restart) are dropped, a forged one gets 401', async (typeVersion) => {
		const result = await outcomes(typeVersion);
		expect(result).toEqual({
			statuses: [200, 200, 200, 401],
			answers: [
				{ received: true, ignored: 'repeated delivery' },
				{ received: true, ignored: 'repeated delivery' },
				{ message: 'Delivery signature missing or invalid' },
			],
			emitted: ['the event'],
		});
	});
});
