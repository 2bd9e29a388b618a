/**
 * One HTTP forward proxy per queue-mode worker, on loopback, so that every call the service answers can be told
 * apart by the worker that sent it. The service's own log cannot: n8n opens a new connection per call, from the same
 * address for every worker. Each worker is started with HTTP_PROXY set to its own proxy (n8n's HTTP helpers follow
 * it, through proxy-from-env); the proxy forwards the call unchanged and notes when it arrived and how it was answered.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedCall {
	/** Worker index (0 is worker 1). */
	worker: number;
	/** When the call reached the proxy (epoch ms): the order in which the service counts it, to a millisecond or so. */
	at: number;
	method: string;
	status: number;
}

export interface WorkerProxies {
	/** HTTP_PROXY for each worker, in order. */
	urls: string[];
	/** Calls answered since the last `clear()`, in the order they arrived. */
	calls(): ProxiedCall[];
	clear(): void;
	stop(): Promise<void>;
}

function forward(worker: number, log: ProxiedCall[]): http.RequestListener {
	return (request, response) => {
		const at = Date.now();
		const method = request.method ?? 'GET';
		let target: URL;
		try {
			// A forward proxy receives the absolute URL in the request line.
			target = new URL(request.url ?? '');
		} catch {
			response.writeHead(400).end('absolute URL expected');
			return;
		}
		const upstream = http.request(
			{ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method, headers: request.headers },
			(answer) => {
				log.push({ worker, at, method, status: answer.statusCode ?? 0 });
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
			},
		);
		upstream.on('error', (error) => {
			log.push({ worker, at, method, status: 502 });
			if (!response.headersSent) response.writeHead(502);
			response.end(String(error));
		});
		request.pipe(upstream);
	};
}

export async function startWorkerProxies(workers: number): Promise<WorkerProxies> {
	const log: ProxiedCall[] = [];
	const servers = await Promise.all(
		Array.from({ length: workers }, async (_, worker) => {
			const server = http.createServer(forward(worker, log));
			// keepAlive lets n8n reuse its connection to the proxy; the proxy opens a fresh one upstream per call.
			server.keepAliveTimeout = 5_000;
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			return server;
		}),
	);
	return {
		urls: servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`),
		calls: () => [...log].sort((a, b) => a.at - b.at),
		clear: () => {
			// The listeners hold the array, so it is emptied in place.
			log.length = 0;
		},
		stop: async () => {
			await Promise.all(
				servers.map(async (server) => {
					server.closeAllConnections();
					await new Promise((resolve) => server.close(resolve));
				}),
			);
			log.length = 0;
		},
	};
}
