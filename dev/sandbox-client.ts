/** A handle on a sandbox running in a child process (see sandbox-process.ts), for the benchmarks. */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface SandboxProcessOptions {
	windowSeconds?: number;
	readLimit?: number;
	writeLimit?: number;
	rateLimit?: boolean;
	rateLimitResetFormat?: 'epoch-seconds' | 'epoch-ms' | 'delta-seconds';
	/** Windows aligned to the clock instead of opened by a key's first call. */
	clockWindows?: boolean;
	/** X-RateLimit-* on every answer, or on 429 answers only (as the spec documents them). */
	rateHeaders?: 'always' | 'on-429';
	seed?: number;
	apiKeys?: string[];
	dataset?: Record<string, number>;
	signatureHeader?: string;
	port?: number;
}

export interface RequestSummary {
	total: number;
	byStatus: Record<string, number>;
	byKind: Record<string, number>;
	tooMany: number;
	firstAt: number | null;
	lastAt: number | null;
	pauses?: Array<{ afterRequest: number; atMs: number; gapMs: number }>;
}

export class SandboxProcess {
	private nextId = 1;

	private pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();

	private constructor(
		private readonly child: ChildProcess,
		readonly url: string,
		readonly apiKey: string,
	) {
		child.on('message', (message: { id?: number; result?: unknown; error?: string }) => {
			if (message.id === undefined) return;
			const waiter = this.pending.get(message.id);
			if (!waiter) return;
			this.pending.delete(message.id);
			if (message.error !== undefined) waiter.reject(new Error(`sandbox: ${message.error}`));
			else waiter.resolve(message.result);
		});
		child.on('exit', () => {
			for (const waiter of this.pending.values()) waiter.reject(new Error('sandbox process exited'));
			this.pending.clear();
		});
	}

	static async start(options: SandboxProcessOptions, timeoutMs = 120_000): Promise<SandboxProcess> {
		const child = fork(path.join(__dirname, 'sandbox-process.ts'), [], {
			execArgv: ['-r', 'ts-node/register/transpile-only'],
			env: { ...process.env, BENCH_SANDBOX_OPTIONS: JSON.stringify({ port: 0, ...options }) },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		const ready = await new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
			const timer = setTimeout(() => {
				child.kill();
				reject(new Error(`sandbox did not start within ${timeoutMs} ms`));
			}, timeoutMs);
			child.once('message', (message: { ready: boolean; url?: string; apiKey?: string; error?: string }) => {
				clearTimeout(timer);
				if (message.ready) resolve({ url: message.url!, apiKey: message.apiKey! });
				else reject(new Error(`sandbox failed to start: ${message.error}`));
			});
			child.once('exit', (code) => {
				clearTimeout(timer);
				reject(new Error(`sandbox process exited with ${code} before it was ready`));
			});
		});
		return new SandboxProcess(child, ready.url, ready.apiKey);
	}

	get pid(): number | undefined {
		return this.child.pid;
	}

	async call<T = unknown>(method: string, ...args: unknown[]): Promise<T> {
		const id = this.nextId++;
		return await new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve, reject });
			this.child.send({ id, method, args });
		});
	}

	async requestCount(): Promise<number> {
		return await this.call<number>('requestCount');
	}

	async requestSummary(fromIndex: number): Promise<RequestSummary> {
		return await this.call<RequestSummary>('requestSummary', fromIndex);
	}

	async setRateLimit(p: { windowSeconds?: number; readLimit?: number; writeLimit?: number; enabled?: boolean }) {
		await this.call('setRateLimit', p);
	}

	async reset(): Promise<void> {
		await this.call('reset');
	}

	async stop(): Promise<void> {
		if (this.child.exitCode !== null) return;
		const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
		try {
			await Promise.race([this.call('stop'), new Promise((r) => setTimeout(r, 5_000))]);
		} catch {
			// The process may exit before answering; the exit below is what matters.
		}
		const killTimer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
		await exited;
		clearTimeout(killTimer);
	}
}
