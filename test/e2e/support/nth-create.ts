/**
 * A pass-through in front of the sandbox that places one of the sandbox's own faults on the n-th Lead Create
 * (POST /api/v1/leads) only: the sandbox's faults take the first matching requests, and a Retry On Fail case needs
 * the 3rd of 5. When the n-th create arrives, `arm` injects the fault into the sandbox, then the create is forwarded,
 * so the sandbox applies (or not) and answers it as that fault says, and its request log shows every call.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Headers of one hop only, and the encoding fetch has already undone: Node sets its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

export class NthCreate {
	private creates = 0;
	private plan: { nth: number; arm: () => void } | undefined;

	private constructor(
		private readonly server: http.Server,
		readonly url: string,
	) {}

	static async start(target: string): Promise<NthCreate> {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const gateway = new NthCreate(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
		server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
			void gateway.forward(target, request, response).catch(() => response.destroy());
		});
		return gateway;
	}

	/** `arm` runs when the n-th create from now arrives (1 = the next one); counting starts again. */
	onCreate(nth: number, arm: () => void): void {
		this.creates = 0;
		this.plan = { nth, arm };
	}

	async stop(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async forward(target: string, request: http.IncomingMessage, response: http.ServerResponse) {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const method = request.method ?? 'GET';
		const url = new URL(request.url ?? '/', target);
		if (method === 'POST' && url.pathname === '/api/v1/leads' && ++this.creates === this.plan?.nth) this.plan.arm();
		const answer = await fetch(url, {
			method,
			headers: { 'content-type': String(request.headers['content-type'] ?? 'application/json') },
			body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
			redirect: 'manual',
		});
		const body = Buffer.from(await answer.arrayBuffer());
		const headers: Record<string, string> = {};
		answer.headers.forEach((value, name) => {
			if (!HOP_BY_HOP.has(name)) headers[name] = value;
		});
		response.sendDate = false;
		response.writeHead(answer.status, headers);
		response.end(body);
	}
}
