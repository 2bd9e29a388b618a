/**
 * Webhook deliveries: the envelope is POSTed as JSON to the webhook's url, signed with HMAC-SHA256 (hex) over the
 * exact bytes sent. A non-2xx answer, a network error or a timeout is retried with exponential backoff, a bounded
 * number of times; each attempt carries its own `retries` value, so its body and signature differ.
 */
import { createHmac, randomUUID } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Delivery, WebhookWithSecret } from './types';

export interface DeliveryConfig {
	signatureHeader: string;
	maxRetries: number;
	baseDelayMs: number;
	timeoutMs: number;
}

export function sign(secret: string, body: string): string {
	return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

interface Waiter {
	count: number;
	resolve: (deliveries: Delivery[]) => void;
	reject: (error: Error) => void;
	timer: NodeJS.Timeout;
}

export class Deliverer {
	private list: Delivery[] = [];
	private timers = new Set<NodeJS.Timeout>();
	private inFlight = new Set<http.ClientRequest>();
	private waiters = new Set<Waiter>();
	private generation = 0;

	constructor(
		private readonly config: DeliveryConfig,
		/** Current webhook by id, so retries stop once a webhook is deleted. */
		private readonly lookup: (id: string) => WebhookWithSecret | undefined,
	) {}

	all(): Delivery[] {
		return this.list.map((d) => ({ ...d, attempts: d.attempts.map((a) => ({ ...a })) }));
	}

	settled(): Delivery[] {
		return this.all().filter((d) => d.settled);
	}

	/** Queues one delivery of `event` to each webhook; the first attempt starts right away. */
	dispatch(webhooks: WebhookWithSecret[], event: string, data: unknown, test: boolean): Delivery[] {
		const eventId = randomUUID();
		const createdAt = new Date().toISOString();
		const created: Delivery[] = [];
		for (const webhook of webhooks) {
			const delivery: Delivery = {
				id: randomUUID(),
				eventId,
				webhookId: webhook.id,
				url: webhook.url,
				event,
				test,
				body: '',
				signature: '',
				attempts: [],
				delivered: false,
				settled: false,
			};
			this.list.push(delivery);
			created.push(delivery);
			const envelope = { id: eventId, test, event, data, retries: 0, manualRetries: 0, createdAt };
			this.attempt(delivery, webhook.secret, envelope, 0, this.generation);
		}
		return created;
	}

	private attempt(
		delivery: Delivery,
		secret: string,
		envelope: Record<string, unknown>,
		retries: number,
		generation: number,
	): void {
		if (generation !== this.generation) return;
		const body = JSON.stringify({ ...envelope, retries });
		const signature = sign(secret, body);
		const record: Delivery['attempts'][number] = { at: new Date().toISOString(), retries, body, signature };
		delivery.attempts.push(record);
		delivery.body = body;
		delivery.signature = signature;

		let finished = false;
		const finish = (status?: number, error?: string) => {
			if (finished || generation !== this.generation) return;
			finished = true;
			if (status !== undefined) record.status = status;
			if (error !== undefined) record.error = error;
			if (status !== undefined && status >= 200 && status < 300) {
				delivery.delivered = true;
				this.settle(delivery);
				return;
			}
			if (retries >= this.config.maxRetries) {
				this.settle(delivery);
				return;
			}
			const delay = this.config.baseDelayMs * 2 ** retries;
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				const webhook = this.lookup(delivery.webhookId);
				if (!webhook) {
					record.error = `${record.error ?? `HTTP ${record.status}`}; webhook removido, entrega abandonada`;
					this.settle(delivery);
					return;
				}
				this.attempt(delivery, secret, envelope, retries + 1, generation);
			}, delay);
			this.timers.add(timer);
		};

		let url: URL;
		try {
			url = new URL(delivery.url);
		} catch {
			finish(undefined, 'URL inválida');
			return;
		}
		const client = url.protocol === 'https:' ? https : http;
		const request = client.request(
			url,
			{
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'Content-Length': Buffer.byteLength(body),
					'User-Agent': 'prospecting-sandbox-webhooks/1.0',
					[this.config.signatureHeader]: signature,
				},
				timeout: this.config.timeoutMs,
			},
			(response) => {
				response.resume();
				response.on('end', () => finish(response.statusCode));
				response.on('error', (e) => finish(response.statusCode, e.message));
			},
		);
		this.inFlight.add(request);
		request.on('close', () => this.inFlight.delete(request));
		request.on('timeout', () => {
			request.destroy(new Error(`tempo esgotado após ${this.config.timeoutMs} ms`));
		});
		request.on('error', (error) => finish(undefined, error.message));
		request.end(body);
	}

	private settle(delivery: Delivery): void {
		delivery.settled = true;
		this.notify();
	}

	private notify(): void {
		if (this.waiters.size === 0) return;
		const done = this.list.filter((d) => d.settled).length;
		for (const waiter of [...this.waiters]) {
			if (done >= waiter.count) {
				clearTimeout(waiter.timer);
				this.waiters.delete(waiter);
				waiter.resolve(this.settled());
			}
		}
	}

	/** Resolves with the settled deliveries once at least `count` have settled (delivered or given up). */
	waitFor(count: number, timeoutMs = 10_000): Promise<Delivery[]> {
		const done = this.list.filter((d) => d.settled).length;
		if (done >= count) return Promise.resolve(this.settled());
		return new Promise((resolve, reject) => {
			const waiter: Waiter = {
				count,
				resolve,
				reject,
				timer: setTimeout(() => {
					this.waiters.delete(waiter);
					const settledNow = this.list.filter((d) => d.settled).length;
					reject(
						new Error(
							`Aguardando ${count} entregas concluídas; ${settledNow} concluídas de ${this.list.length} após ${timeoutMs} ms.`,
						),
					);
				}, timeoutMs),
			};
			this.waiters.add(waiter);
		});
	}

	/** Drops every delivery and cancels pending retries and requests. */
	clear(): void {
		this.generation++;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		for (const request of this.inFlight) request.destroy();
		this.inFlight.clear();
		this.list = [];
		for (const waiter of this.waiters) {
			clearTimeout(waiter.timer);
			waiter.reject(new Error('Sandbox reiniciado enquanto aguardava entregas.'));
		}
		this.waiters.clear();
	}
}
