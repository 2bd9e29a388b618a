/** The sandbox HTTP server: /api/v1 (authenticated, rate limited, faults applied) and the control API under /__sandbox/. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleApi, type ApiResponse } from './api';
import { handleControlHttp, makeControl } from './control';
import { Deliverer } from './deliveries';
import { ApiError, MESSAGES, validationError } from './errors';
import { FaultSet } from './faults';
import { parseQuery } from './query';
import { RateLimiter, type RateDecision, type RequestKind } from './rate-limiter';
import type { SandboxState } from './state';
import { Store } from './store';
import type { AppliedWrite, Fault, RecordedRequest, RunningSandbox, SandboxOptions } from './types';

/** Fixed 40-character key accepted by default. It guards nothing real: the sandbox holds only generated data. */
export const DEMO_API_KEY = 'sbx_demo_4f9c2a7e1b6d3c8a5f0e9b2d7c4a1e6';

const API_PREFIX = '/api/v1';
const CONTROL_PREFIX = '/__sandbox';
const MAX_BODY_BYTES = 1024 * 1024;
/** Past this many recorded requests the oldest 100,000 are forgotten, so endless load runs stay bounded in memory. */
const MAX_RECORDED_REQUESTS = 500_000;
const JSON_TYPE = 'application/json; charset=utf-8';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What a proxy in front of the service answers while it is down for maintenance. */
const MAINTENANCE_PAGE = '<!DOCTYPE html><html><body>Serviço em manutenção</body></html>';

function maskQuery(search: string): Record<string, string | string[]> {
	const query: Record<string, string | string[]> = {};
	if (!search) return query;
	for (const [key, raw] of new URLSearchParams(search)) {
		// Any spelling of the key's parameter is masked, even ones the service would not read.
		const value = /^api_?key/i.test(key) ? '***' : raw;
		const existing = query[key];
		if (existing === undefined) query[key] = value;
		else if (Array.isArray(existing)) existing.push(value);
		else query[key] = [existing, value];
	}
	return query;
}

function maskedQueryString(search: string): string {
	return search.replace(/(^|&)(api_?key[^=&]*)=[^&]*/gi, '$1$2=***');
}

function readBody(req: http.IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) tooLarge = true;
			else chunks.push(chunk);
		});
		req.on('end', () => resolve({ text: tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge }));
		req.on('error', () => resolve({ text: '', tooLarge: false }));
	});
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a write's answer says it applied: the record it names (a lead or webhook id, or the lead added to a routine),
 * at the record's own stamp when it carries one (the commit), else now.
 */
function appliedBy(body: string, serviceNow: number): AppliedWrite {
	const record = JSON.parse(body) as { id?: unknown; leadId?: unknown; createdAt?: unknown };
	const at = record.id !== undefined && typeof record.createdAt === 'string' ? record.createdAt : new Date(serviceNow).toISOString();
	return { at, recordId: String(record.id ?? record.leadId) };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const seed = options.seed ?? 1;
	const apiKeys = new Set(options.apiKeys && options.apiKeys.length ? options.apiKeys : [DEMO_API_KEY]);
	const firstKey = [...apiKeys][0];
	const host = options.host ?? '127.0.0.1';
	const log = options.log;

	const limiter = new RateLimiter({
		windowSeconds: options.windowSeconds ?? 60,
		readLimit: options.readLimit ?? 200,
		writeLimit: options.writeLimit ?? 100,
		enabled: options.rateLimit ?? true,
		resetFormat: options.rateLimitResetFormat ?? 'epoch-seconds',
		clockWindows: options.clockWindows ?? false,
		rateHeaders: options.rateHeaders ?? 'always',
		clockOffsetMs: options.clockOffsetMs ?? 0,
		dateHeader: options.dateHeader ?? true,
	});
	const store = new Store(seed, options.dataset, () => limiter.serviceNow());
	const state: SandboxState = {
		options: { seed, signatureHeader: (options.signatureHeader ?? 'x-signature').toLowerCase() },
		store,
		apiKeys,
		limiter,
		faults: new FaultSet(seed),
		deliverer: new Deliverer(
			{
				signatureHeader: (options.signatureHeader ?? 'x-signature').toLowerCase(),
				maxRetries: options.delivery?.maxRetries ?? 3,
				baseDelayMs: options.delivery?.baseDelayMs ?? 1000,
				timeoutMs: options.delivery?.timeoutMs ?? 5000,
			},
			(id) => store.webhooks.get(id),
		),
		requests: [],
		arrivals: 0,
	};
	const control = makeControl(state);

	function record(entry: RecordedRequest, search: string): void {
		state.requests.push(entry);
		if (state.requests.length > MAX_RECORDED_REQUESTS) state.requests.splice(0, 100_000);
		if (log) {
			const query = search ? `?${maskedQueryString(search)}` : '';
			log(`${entry.method} ${entry.path}${query} -> ${entry.dropped ? 'connection dropped' : entry.status}`);
		}
	}

	function send(
		req: http.IncomingMessage,
		res: http.ServerResponse,
		status: number,
		body: string,
		headers: Record<string, string> = {},
		contentType = JSON_TYPE,
	): void {
		// The caller may have given up on a slow answer and closed the connection.
		if (res.destroyed || req.socket.destroyed) return;
		const payload = Buffer.from(body, 'utf8');
		// The service's clock, as its Date header shows it: ahead of or behind the real one by clockOffsetMs; or no
		// Date header at all, as behind a proxy that strips it.
		res.sendDate = false;
		const date = state.limiter.config.dateHeader ? { Date: new Date(state.limiter.serviceNow()).toUTCString() } : {};
		res.writeHead(status, { ...date, ...headers, 'Content-Type': contentType, 'Content-Length': String(payload.length) });
		if (req.method === 'HEAD') res.end();
		else res.end(payload);
	}

	async function handleApiRequest(
		req: http.IncomingMessage,
		res: http.ServerResponse,
		method: string,
		path: string,
		search: string,
	): Promise<void> {
		// The spec's writes are POST, PUT, PATCH and DELETE; anything else (GET, HEAD, OPTIONS...) is counted as a read.
		const kind: RequestKind = WRITE_METHODS.has(method) ? 'write' : 'read';
		const bodyPromise = kind === 'write' ? readBody(req) : (req.resume(), Promise.resolve({ text: '', tooLarge: false }));
		const remotePort = req.socket.remotePort;
		const seq = state.arrivals++;
		// A plan's fault for this request comes before the injected ones; the plan may hold the request first.
		const plannedFault = state.plan ? await state.plan({ method, path, remotePort, seq }) : undefined;
		const planned = plannedFault ? new FaultSet(seed) : undefined;
		if (plannedFault) planned?.add(plannedFault);
		const take: FaultSet['take'] = (faultKind, request, accept) =>
			planned?.take(faultKind, request, accept) ?? state.faults.take(faultKind, request, accept);
		const entry: RecordedRequest = {
			at: new Date().toISOString(),
			method,
			path,
			query: maskQuery(search),
			status: 0,
			kind,
			remotePort,
			seq,
		};

		// Every write's body is kept in the record, also one refused or dropped before the commit.
		const { text, tooLarge } = await bodyPromise;
		if (kind === 'write' && text.trim() !== '') {
			try {
				entry.body = JSON.parse(text) as unknown;
			} catch {
				// Not JSON: the handler answers 400, and the record keeps no body.
			}
		}

		const latency = state.faults.latencyMs() + (planned?.latencyMs() ?? 0);
		if (latency > 0) await sleep(latency);

		const reply = (status: number, body: string, headers: Record<string, string>, contentType?: string) => {
			// Recorded once: a gateway's answer to a caller already gone leaves the service's own answer to come.
			if (entry.status === 0 && !entry.dropped) record(entry, search);
			entry.status = status;
			send(req, res, status, body, headers, contentType);
		};
		const replyStatusFault = (fault: Extract<Fault, { kind: 'status' }>, headers: Record<string, string>) => {
			if (fault.body !== undefined) reply(fault.status, fault.body, headers, fault.contentType ?? JSON_TYPE);
			else reply(fault.status, JSON.stringify({ message: MESSAGES.serverError(fault.status) }), headers);
		};
		const replyMalformed = (fault: Extract<Fault, { kind: 'malformed' }>, headers: Record<string, string>) => {
			if (fault.body !== undefined) reply(fault.status ?? 200, fault.body, headers, fault.contentType ?? JSON_TYPE);
			else reply(fault.status ?? 200, MAINTENANCE_PAGE, headers, 'text/html; charset=utf-8');
		};
		const drop = () => {
			entry.dropped = true;
			record(entry, search);
			req.socket.destroy();
		};

		const query = parseQuery(search);
		const key = query.get('apiKey')?.[0];
		let rate: RateDecision;
		if (!key || !apiKeys.has(key)) {
			// Refused keys are counted per caller address, so guessing keys is rate limited too.
			rate = state.limiter.consume(`address:${req.socket.remoteAddress ?? ''}`, kind);
			if (!rate.allowed) {
				reply(429, JSON.stringify({ message: MESSAGES.rateLimited(rate.retryAfterSeconds) }), rate.headers);
				return;
			}
			await bodyPromise;
			reply(401, JSON.stringify({ message: key ? MESSAGES.invalidKey : MESSAGES.missingKey }), rate.headers);
			return;
		}
		rate = state.limiter.consume(`key:${key}`, kind);
		if (!rate.allowed) {
			reply(429, JSON.stringify({ message: MESSAGES.rateLimited(rate.retryAfterSeconds) }), rate.headers);
			return;
		}
		const info = { method, path };
		const forced = take('rate-limit', info);
		if (forced) {
			const decision = state.limiter.forced(forced.retryAfterSeconds ?? 1, kind);
			reply(429, JSON.stringify({ message: MESSAGES.rateLimited(decision.retryAfterSeconds) }), forced.hints === false ? {} : decision.headers);
			return;
		}
		const moved = take('redirect', info);
		if (moved) {
			const location: Record<string, string> = moved.location === undefined ? {} : { Location: moved.location };
			reply(moved.status, JSON.stringify({ message: MESSAGES.moved(moved.location) }), { ...rate.headers, ...location });
			return;
		}
		const failure = take('status', info, (f) => f.when !== 'after-commit');
		if (failure) {
			replyStatusFault(failure, rate.headers);
			return;
		}
		const malformed = take('malformed', info, (f) => f.when !== 'after-commit');
		if (malformed) {
			replyMalformed(malformed, rate.headers);
			return;
		}
		if (take('drop', info, (f) => f.when === 'before-commit')) {
			drop();
			return;
		}

		// A slow service applies the request late and answers later still, whether or not the caller is still waiting.
		const slow = take('slow-commit', info);
		if (slow?.gatewayTimeoutMs !== undefined && slow.gatewayTimeoutMs < slow.commitAfterMs) {
			// A gateway in front gives up first and answers 504; the service behind it still applies the request.
			await sleep(slow.gatewayTimeoutMs);
			reply(504, JSON.stringify({ message: MESSAGES.serverError(504) }), rate.headers);
			await sleep(slow.commitAfterMs - slow.gatewayTimeoutMs);
		} else if (slow) await sleep(slow.commitAfterMs);
		let response: ApiResponse;
		try {
			if (tooLarge) throw validationError([{ field: 'body', message: 'Corpo da requisição maior que 1 MB.' }]);
			const route = path.length > API_PREFIX.length ? path.slice(API_PREFIX.length).replace(/\/+$/, '') : '';
			response = handleApi(store, {
				method,
				route,
				query,
				body: () => {
					if (!text.trim()) return undefined;
					try {
						return JSON.parse(text) as unknown;
					} catch (error) {
						throw validationError([{ field: 'body', message: `JSON malformado: ${(error as Error).message}` }]);
					}
				},
			});
		} catch (error) {
			if (error instanceof ApiError) response = { status: error.status, body: JSON.stringify(error.body()) };
			else response = { status: 500, body: JSON.stringify({ message: MESSAGES.serverError(500) }) };
		}
		if (kind === 'write' && response.status < 300) entry.applied = appliedBy(response.body, limiter.serviceNow());
		if (res.headersSent) return;
		if (slow) await sleep(Math.max(0, (slow.answerAfterMs ?? slow.commitAfterMs) - slow.commitAfterMs));
		if (take('drop', info, (f) => f.when === 'after-commit')) {
			drop();
			return;
		}
		const gateway = take('status', info, (f) => f.when === 'after-commit');
		if (gateway) {
			replyStatusFault(gateway, rate.headers);
			return;
		}
		const rewritten = take('malformed', info, (f) => f.when === 'after-commit');
		if (rewritten) {
			replyMalformed(rewritten, rate.headers);
			return;
		}
		reply(response.status, response.body, rate.headers);
	}

	const server = http.createServer((req, res) => {
		const rawUrl = req.url ?? '/';
		const q = rawUrl.indexOf('?');
		const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
		const search = q === -1 ? '' : rawUrl.slice(q + 1);
		const method = (req.method ?? 'GET').toUpperCase();
		let work: Promise<void>;
		if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) {
			work = handleApiRequest(req, res, method, path, search);
		} else if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
			work = readBody(req).then(({ text }) =>
				handleControlHttp(state, control, method, path.slice(CONTROL_PREFIX.length), search, text).then((r) =>
					send(req, res, r.status, JSON.stringify(r.body)),
				),
			);
		} else {
			req.resume();
			send(req, res, 404, JSON.stringify({ message: MESSAGES.unknownRoute(method, path) }));
			return;
		}
		work.catch(() => {
			if (!res.headersSent) send(req, res, 500, JSON.stringify({ message: MESSAGES.serverError(500) }));
			else res.destroy();
		});
	});
	server.keepAliveTimeout = 5000;

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address() as AddressInfo;
	const urlHost = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
	let stopped: Promise<void> | undefined;

	return {
		url: `http://${urlHost}:${address.port}`,
		apiKey: firstKey,
		control,
		stop() {
			if (!stopped) {
				stopped = new Promise<void>((resolve) => {
					state.deliverer.clear();
					server.close(() => resolve());
					server.closeAllConnections();
				});
			}
			return stopped;
		},
	};
}
