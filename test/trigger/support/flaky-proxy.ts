/**
 * A loopback proxy in front of the sandbox whose network can "go down" at a chosen moment: after a
 * matching request has been forwarded (so the service committed it), the answer is dropped and
 * every later request is dropped too, until `restore()`.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export class FlakyProxy {
	private down = false;
	private failAfter?: (method: string, path: string) => boolean;

	private constructor(
		private readonly server: http.Server,
		readonly url: string,
	) {}

	static async start(target: string): Promise<FlakyProxy> {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const proxy = new FlakyProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
		server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
			void proxy.forward(target, request, response);
		});
		return proxy;
	}

	/** The network goes down right after the next request matching `when` reached the service. */
	goDownAfter(when: (method: string, path: string) => boolean): void {
		this.failAfter = when;
	}

	restore(): void {
		this.down = false;
		this.failAfter = undefined;
	}

	async stop(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async forward(target: string, request: http.IncomingMessage, response: http.ServerResponse) {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		if (this.down) {
			request.socket.destroy();
			return;
		}
		const method = request.method ?? 'GET';
		const url = new URL(request.url ?? '/', target);
		const answer = await fetch(url, {
			method,
			headers: { 'content-type': String(request.headers['content-type'] ?? 'application/json') },
			body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
		});
		const text = await answer.text();
		if (this.failAfter?.(method, url.pathname)) {
			this.down = true;
			request.socket.destroy();
			return;
		}
		response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
		response.end(text);
	}
}
