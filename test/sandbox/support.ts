/** Small helpers shared by the sandbox suites: calls against a running sandbox over real loopback HTTP. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningSandbox } from '../../sandbox';

export interface CallResult<T = any> {
	status: number;
	headers: Headers;
	body: T;
	text: string;
}

/** One /api/v1 call with the sandbox's key (unless `apiKey` is given; null sends none). */
export async function call<T = any>(
	sandbox: RunningSandbox,
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

/** Every record of a list, walking pages while page < totalPages with the same order on each page. */
export async function walk(sandbox: RunningSandbox, path: string, query: string): Promise<any[]> {
	const records: any[] = [];
	for (let page = 1; page < 10_000; page++) {
		const result = await call(sandbox, 'GET', path, { query: `${query}&page=${page}` });
		expect(result.status).toBe(200);
		records.push(...result.body.data);
		if (result.body.meta.page >= result.body.meta.totalPages) break;
	}
	return records;
}

export interface ReceivedDelivery {
	headers: http.IncomingHttpHeaders;
	raw: Buffer;
	at: number;
}

/** A local receiver for webhook deliveries; `answer` picks the status for the n-th request (0-based). */
export async function startReceiver(answer: (n: number) => number = () => 200) {
	const received: ReceivedDelivery[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			received.push({ headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() });
			res.writeHead(answer(received.length - 1));
			res.end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
