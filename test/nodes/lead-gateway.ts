/**
 * A gateway in front of the sandbox for Lead Create's faults that the sandbox's own faults cannot place: a status
 * on the n-th create only (before its commit, or after it), and a service whose clock runs behind ours (its Date
 * headers). Everything else passes through as the sandbox answered it, so the sandbox's request log still shows
 * every call that reached the service.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CreateFault {
	/** Which POST /leads through the gateway (1 = the first). */
	nth: number;
	status: number;
	/** 'before-commit': the service never sees it; 'after-commit': the service stores the lead, the gateway answers `status`. */
	when: 'before-commit' | 'after-commit';
}

export class LeadGateway {
	private creates = 0;
	private faults: CreateFault[] = [];
	/** How far the service's Date header is from ours (negative: behind); undefined: answers carry no Date header. */
	clockOffsetMs: number | undefined = 0;

	private constructor(
		private readonly server: http.Server,
		readonly url: string,
	) {}

	static async start(target: () => string): Promise<LeadGateway> {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const gateway = new LeadGateway(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
		server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
			void gateway.forward(target(), request, response);
		});
		return gateway;
	}

	/** Faults for the coming creates; counting starts again. */
	failCreates(...faults: CreateFault[]): void {
		this.creates = 0;
		this.faults = faults;
		this.clockOffsetMs = 0;
	}

	async stop(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private date(): Record<string, string> {
		return this.clockOffsetMs === undefined ? {} : { date: new Date(Date.now() + this.clockOffsetMs).toUTCString() };
	}

	private async forward(target: string, request: http.IncomingMessage, response: http.ServerResponse) {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const method = request.method ?? 'GET';
		const url = new URL(request.url ?? '/', target);
		const isCreate = method === 'POST' && url.pathname === '/api/v1/leads';
		const fault = isCreate ? this.faults.find((candidate) => candidate.nth === ++this.creates) : undefined;
		response.sendDate = false;
		const failed = (status: number) => {
			response.writeHead(status, { 'content-type': 'application/json', ...this.date() });
			response.end(JSON.stringify({ message: 'Erro no gateway.' }));
		};
		if (fault?.when === 'before-commit') return failed(fault.status);
		const answer = await fetch(url, {
			method,
			headers: { 'content-type': String(request.headers['content-type'] ?? 'application/json') },
			body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
		});
		const text = await answer.text();
		if (fault) return failed(fault.status);
		const headers: Record<string, string> = this.date();
		answer.headers.forEach((value, name) => {
			if (name.startsWith('x-ratelimit') || ['content-type', 'retry-after'].includes(name)) headers[name] = value;
		});
		response.writeHead(answer.status, headers);
		response.end(text);
	}
}
