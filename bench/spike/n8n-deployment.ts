/**
 * One real n8n with the package installed, in one of the deployments the spike benchmark compares: one process
 * (SQLite, as the demo runs it) or queue mode (main, webhook processor, workers; PostgreSQL and Redis). The steps are
 * scripts/lib's: pack → install into a fresh user folder → startN8n / startQueueDeployment → owner signed in; the
 * caller builds once beforehand. Shaped like scripts/lib/bootstrap.ts on branch i22-scripts, which replaces it there.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { ensureOwner } from '../../scripts/lib/instance-setup';
import { N8nClient } from '../../scripts/lib/n8n-client';
import { startN8n, type RunningN8n } from '../../scripts/lib/n8n-process';
import { installPackageTarball } from '../../scripts/lib/package-install';
import { freePort } from '../../scripts/lib/ports';
import type { N8nRuntime } from '../../scripts/lib/provision';
import { startQueueDeployment, type RunningQueueDeployment } from '../../scripts/lib/queue-deployment';

export interface SpikeDeploymentOptions {
	runtime: N8nRuntime;
	/** This deployment's folder: user/ (n8n's user folder), logs/, pids/. */
	runDir: string;
	/** The packed package (npm pack), installed into user/.n8n/nodes. */
	tarball: string;
	/** Queue mode with this many workers at this concurrency; one process when absent. */
	queue?: { workers: number; workerConcurrency: number };
	say: (text: string) => void;
}

export interface SpikeDeployment {
	client: N8nClient;
	/** Base of production webhook URLs: the process itself, or the webhook processor in queue mode. */
	webhookUrl: string;
	/** Every n8n process, by role, for memory sampling. */
	processes: Array<{ role: string; pid: number }>;
	startSeconds: number;
	stop(): Promise<void>;
}

const OWNER = { email: 'bench@example.com', firstName: 'Bench', lastName: 'Owner', password: 'Prospecting-bench-1' };

export async function startSpikeDeployment(options: SpikeDeploymentOptions): Promise<SpikeDeployment> {
	const { runtime, runDir, say } = options;
	const userFolder = path.join(runDir, 'user');
	const logDir = path.join(runDir, 'logs');
	rmSync(runDir, { recursive: true, force: true });
	mkdirSync(logDir, { recursive: true });
	await installPackageTarball(userFolder, options.tarball);
	const common = {
		runtime,
		userFolder,
		encryptionKey: 'n8n-nodes-prospecting-bench-spike-key',
		pidDir: process.env.PROSPECTING_PID_DIR ?? path.join(runDir, 'pids'),
		logLevel: 'warn' as const,
	};
	const startedAt = performance.now();
	let single: RunningN8n | undefined;
	let queue: RunningQueueDeployment | undefined;
	if (options.queue) {
		queue = await startQueueDeployment({ ...common, ...options.queue, logDir, say });
	} else {
		say(`starting n8n ${runtime.n8nVersion} in one process (SQLite)`);
		single = await startN8n({ ...common, port: await freePort(), brokerPort: await freePort(), logFile: path.join(logDir, 'n8n.log') });
	}
	const stop = async () => await (queue ?? single)!.stop();
	const main = queue?.main ?? single!;
	const processes = queue
		? [
				{ role: 'main', pid: queue.main.pid },
				{ role: 'webhook', pid: queue.webhook.pid },
				...queue.workers.map((worker, i) => ({ role: `worker-${i + 1}`, pid: worker.pid })),
			]
		: [{ role: 'main', pid: main.pid }];
	const client = new N8nClient(main.url, runtime.n8nPackageDir);
	try {
		await ensureOwner(client, OWNER);
	} catch (error) {
		await stop();
		throw error;
	}
	return {
		client,
		webhookUrl: queue?.webhookUrl ?? main.url,
		processes,
		startSeconds: Math.round((performance.now() - startedAt) / 100) / 10,
		stop,
	};
}
