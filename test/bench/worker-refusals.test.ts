/**
 * The spike benchmark tells whose call each refusal was through one proxy per queue-mode worker, and counts the
 * refusals per worker and window, and each window's writes per worker, from what the proxies saw.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { perWorkerRefusals, perWorkerWrites } from '../../bench/spike/outcome';
import { startWorkerProxies, type ProxiedCall } from '../../bench/lib/worker-proxies';

const call = (worker: number, at: number, status: number, method = 'POST'): ProxiedCall => ({ worker, at, method, status });

describe('refusals per worker and window', () => {
	it('counts each refusal for the worker that sent it, window by window', () => {
		const calls = [call(0, 0, 200), call(1, 10, 429), call(0, 20, 429), call(1, 5_000, 429), call(1, 5_010, 429)];
		expect(perWorkerRefusals(calls, 2, 5)).toEqual({
			perWorker: [1, 3],
			mostInOneWindow: 2,
			worst: { kind: 'write', window: 1, worker: 1, afterFirstMs: [0, 10] },
		});
	});

	it('counts windows aligned to the clock where the service aligns them', () => {
		// 4,990 falls in the clock window before 5,010 and 9,000, though a window opened by the first call holds all three.
		const calls = [call(0, 4_990, 429), call(0, 5_010, 429), call(0, 9_000, 429)];
		expect(perWorkerRefusals(calls, 1, 5)).toMatchObject({ perWorker: [3], mostInOneWindow: 3 });
		expect(perWorkerRefusals(calls, 1, 5, true)).toMatchObject({
			perWorker: [3],
			mostInOneWindow: 2,
			worst: { window: 1, afterFirstMs: [0, 3_990] },
		});
	});

	it('keeps reads and writes apart, as the service counts them', () => {
		const calls = [call(0, 0, 429, 'GET'), call(0, 10, 429, 'POST'), call(1, 20, 200, 'GET')];
		expect(perWorkerRefusals(calls, 2, 5)).toMatchObject({ perWorker: [2, 0], mostInOneWindow: 1, worst: { kind: 'read' } });
	});
});

describe('write calls per worker and window', () => {
	it('counts each worker\'s counted writes in each window, leaving out refusals and reads, and tells when its first came', () => {
		const calls = [
			call(0, 0, 201),
			call(1, 10, 200),
			call(1, 20, 429),
			call(0, 30, 200, 'GET'),
			call(1, 5_000, 201),
			call(1, 5_010, 200),
		];
		expect(perWorkerWrites(calls, 2, 5)).toEqual({
			counted: [
				[1, 1],
				[0, 2],
			],
			firstAtMs: [
				[0, 10],
				[null, 0],
			],
		});
	});
});

describe('one proxy per worker', () => {
	it('forwards a call unchanged and notes which worker sent it and how it was answered', async () => {
		const service = http.createServer((request, response) => {
			response.writeHead(request.url === '/limited' ? 429 : 200, { 'x-ratelimit-remaining': '0' }).end(`${request.method} ${request.url}`);
		});
		await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
		const target = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
		const proxies = await startWorkerProxies(2);
		const viaProxy = async (proxy: string, path: string) =>
			await new Promise<{ status?: number; body: string; remaining?: string }>((resolve, reject) => {
				const { hostname, port } = new URL(proxy);
				// A client behind a forward proxy puts the absolute URL in the request line.
				const request = http.request({ host: hostname, port, path: `${target}${path}`, method: 'POST' }, (response) => {
					let body = '';
					response.on('data', (chunk: Buffer) => (body += chunk.toString()));
					response.on('end', () => resolve({ status: response.statusCode, body, remaining: response.headers['x-ratelimit-remaining'] as string }));
				});
				request.on('error', reject);
				request.end();
			});
		try {
			expect(await viaProxy(proxies.urls[1], '/limited')).toEqual({ status: 429, body: 'POST /limited', remaining: '0' });
			expect(await viaProxy(proxies.urls[0], '/leads?page=1')).toMatchObject({ status: 200, body: 'POST /leads?page=1' });
			expect(proxies.calls().map(({ worker, status }) => ({ worker, status }))).toEqual([
				{ worker: 1, status: 429 },
				{ worker: 0, status: 200 },
			]);
			proxies.clear();
			expect(proxies.calls()).toEqual([]);
		} finally {
			await proxies.stop();
			await new Promise((resolve) => service.close(resolve));
		}
	});
});
