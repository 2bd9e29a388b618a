/** Helpers of the sandbox suites: a walk over a list's pages, and a receiver of webhook deliveries. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningSandbox } from '../../sandbox';
import { call } from '../support/service';

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
