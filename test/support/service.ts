/**
 * Calls to the service (a running sandbox) as another client of the account makes them, outside the run a test
 * looks at: the app, a script, another tool. Over real loopback HTTP with the account's key.
 */
import type { RunningSandbox } from '../../sandbox';

/** Where the service is and the key a call sends (the sandbox's own, or another it accepts). */
type Service = Pick<RunningSandbox, 'url' | 'apiKey'>;

export interface CallResult<T = any> {
	status: number;
	headers: Headers;
	body: T;
	text: string;
}

/** One /api/v1 call with the sandbox's key (unless `apiKey` is given; null sends none). */
export async function call<T = any>(
	sandbox: Service,
	method: string,
	path: string,
	options: { query?: string; body?: unknown; rawBody?: string; apiKey?: string | null } = {},
): Promise<CallResult<T>> {
	const key = options.apiKey === undefined ? sandbox.apiKey : options.apiKey;
	const params = [key === null ? '' : `apiKey=${encodeURIComponent(key)}`, options.query ?? ''].filter(Boolean).join('&');
	const url = `${sandbox.url}/api/v1${path}${params ? `?${params}` : ''}`;
	const init: RequestInit = { method };
	if (options.rawBody !== undefined || options.body !== undefined) {
		init.body = options.rawBody ?? JSON.stringify(options.body);
		init.headers = { 'Content-Type': 'application/json' };
	}
	const response = await fetch(url, init);
	const text = await response.text();
	let body: any;
	try {
		body = text ? JSON.parse(text) : undefined;
	} catch {
		body = undefined;
	}
	return { status: response.status, headers: response.headers, body, text };
}

/** A webhook the account already has, registered outside the run: its id. */
export async function existingWebhook(sandbox: Service, webhook: { name: string; url: string; events?: string[] }): Promise<string> {
	const { name, url, events = ['prospection.won'] } = webhook;
	const { status, body } = await call<{ id: string }>(sandbox, 'POST', '/webhooks', { body: { name, url, events } });
	if (status >= 300) throw new Error(`The service did not create the webhook (${status})`);
	return body.id;
}

/** A lead stored outside the run, as the app or an earlier form would have: its id. */
export async function existingLead(sandbox: Service, lead: Record<string, unknown>): Promise<string> {
	const { status, body } = await call<{ id: string }>(sandbox, 'POST', '/leads', { body: lead });
	if (status >= 300) throw new Error(`The service did not create the lead (${status})`);
	return body.id;
}
