/**
 * One real n8n for the suite (scripts/lib/bootstrap.ts): the packed package installed into a fresh user folder under
 * .n8n-e2e/ (.n8n-e2e-queue/ in queue mode), a fresh sandbox with a random API key, the owner account and the
 * credentials. One process can be restarted on the same folder; queue mode runs the main process, one webhook
 * processor and workers on PostgreSQL and Redis.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { bootstrapN8n, type N8nInstance } from '../../../scripts/lib/bootstrap';
import type { N8nClient } from '../../../scripts/lib/n8n-client';
import type { RunningN8n } from '../../../scripts/lib/n8n-process';
import { ensureCredential } from '../../../scripts/lib/instance-setup';
import { repoRoot, type N8nRuntime } from '../../../scripts/lib/provision';
import type { RunningQueueDeployment } from '../../../scripts/lib/queue-deployment';

/** A 40-character key like the service's, different on every run so that a scan for it means something. */
export function randomApiKey(): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	return Array.from(randomBytes(40), (byte) => alphabet[byte % alphabet.length]).join('');
}

export interface E2eInstance {
	/** The n8n this run uses; `runtime.n8nVersion` (N8N_VERSION, e.g. "2.41.1" or "1.123.81") for version-specific checks. */
	runtime: N8nRuntime;
	runDir: string;
	userFolder: string;
	logFile: string;
	sandbox: RunningSandbox;
	/** The n8n process (queue mode: the main process). */
	n8n: RunningN8n;
	client: N8nClient;
	credential: { id: string; name: string; type: string };
	wrongCredential: { id: string; name: string; type: string };
	wrongApiKey: string;
	restartN8n(): Promise<void>;
	stop(): Promise<void>;
}

export interface QueueE2eInstance extends E2eInstance {
	deployment: RunningQueueDeployment;
}

async function startInstance(runDir: string, queue?: { workers: number }): Promise<E2eInstance & { instance: N8nInstance }> {
	rmSync(runDir, { recursive: true, force: true });
	const apiKey = randomApiKey();
	const wrongApiKey = randomApiKey();
	const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', apiKeys: [apiKey] });
	let n8n: N8nInstance | undefined;
	try {
		n8n = await bootstrapN8n({
			runDir,
			// One execution per worker at a time: two executions started together run on two workers.
			queue: queue && { workers: queue.workers, workerConcurrency: 1 },
			echo: process.env.E2E_ECHO_N8N === 'true',
			say: queue && ((text) => process.stderr.write(`[e2e queue] ${text}\n`)),
		});
		const { client } = n8n;
		const credential = await ensureCredential(client, { baseUrl: sandbox.url, apiKey });
		const wrongCredential = await ensureCredential(client, { baseUrl: sandbox.url, apiKey: wrongApiKey }, 'Prospecting API (wrong key)');
		const started = n8n;
		return {
			instance: started,
			runtime: started.runtime,
			runDir,
			userFolder: started.userFolder,
			logFile: started.logFile,
			sandbox,
			get n8n() {
				return started.main;
			},
			client,
			credential,
			wrongCredential,
			wrongApiKey,
			restartN8n: async () => await started.restart(),
			async stop() {
				await started.stop();
				await sandbox.stop();
			},
		};
	} catch (error) {
		await n8n?.stop();
		await sandbox.stop();
		throw error;
	}
}

export async function startE2eInstance(): Promise<E2eInstance> {
	return await startInstance(path.join(repoRoot, '.n8n-e2e'));
}

export async function startQueueE2eInstance(options: { workers?: number } = {}): Promise<QueueE2eInstance> {
	const started = await startInstance(path.join(repoRoot, '.n8n-e2e-queue'), { workers: options.workers ?? 2 });
	return Object.assign(started, { deployment: started.instance.queue! });
}

/**
 * The test file's n8n (`startE2eInstance`): started before the file's tests (its own `beforeAll` hooks run after,
 * with the instance up) and stopped after them. Read its fields inside hooks and tests.
 */
export function useE2eInstance(): E2eInstance {
	let running: E2eInstance | undefined;
	beforeAll(async () => {
		running = await startE2eInstance();
	}, 300_000);
	afterAll(async () => await running?.stop());
	return new Proxy({} as E2eInstance, {
		get(_, field) {
			if (!running) throw new Error('n8n starts before the first test of the file; read the instance inside a test.');
			return running[field as keyof E2eInstance];
		},
	});
}
