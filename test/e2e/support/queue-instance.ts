/**
 * n8n in queue mode for the suite (scripts/lib/queue-deployment.ts): PostgreSQL and Redis, the main process, one
 * webhook processor and two workers, one user folder under .n8n-e2e-queue/ with the packed package installed, a fresh
 * sandbox with a random API key, the owner account and the credential.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { N8nClient } from '../../../scripts/lib/n8n-client';
import { DEMO_OWNER, ensureCredential, ensureOwner } from '../../../scripts/lib/instance-setup';
import { installPackageTarball, packPackage } from '../../../scripts/lib/package-install';
import { describeRuntime, ensureN8nRuntime, repoRoot, type N8nRuntime } from '../../../scripts/lib/provision';
import { startQueueDeployment, type RunningQueueDeployment } from '../../../scripts/lib/queue-deployment';
import { randomApiKey } from './instance';

export interface QueueE2eInstance {
	runtime: N8nRuntime;
	runDir: string;
	userFolder: string;
	sandbox: RunningSandbox;
	deployment: RunningQueueDeployment;
	client: N8nClient;
	credential: { id: string; name: string; type: string };
	stop(): Promise<void>;
}

export async function startQueueE2eInstance(options: { workers?: number } = {}): Promise<QueueE2eInstance> {
	const runtime = process.env.PROSPECTING_N8N_RUNTIME
		? describeRuntime(process.env.PROSPECTING_N8N_RUNTIME)
		: await ensureN8nRuntime();
	const runDir = path.join(repoRoot, '.n8n-e2e-queue');
	rmSync(runDir, { recursive: true, force: true });
	mkdirSync(runDir, { recursive: true });
	const userFolder = path.join(runDir, 'user');
	const tarball = await packPackage(path.join(runDir, 'pack'));
	await installPackageTarball(userFolder, tarball);

	const apiKey = randomApiKey();
	const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', apiKeys: [apiKey] });
	let deployment: RunningQueueDeployment;
	try {
		deployment = await startQueueDeployment({
			runtime,
			userFolder,
			logDir: path.join(runDir, 'logs'),
			encryptionKey: randomBytes(24).toString('hex'),
			workers: options.workers ?? 2,
			// One execution per worker at a time: two executions started together run on two workers.
			workerConcurrency: 1,
			pidDir: process.env.PROSPECTING_PID_DIR,
			echo: process.env.E2E_ECHO_N8N === 'true',
			say: (text) => process.stderr.write(`[e2e queue] ${text}\n`),
		});
	} catch (error) {
		await sandbox.stop();
		throw error;
	}
	const client = new N8nClient(deployment.url, runtime.n8nPackageDir);
	let credential: QueueE2eInstance['credential'];
	try {
		await ensureOwner(client, DEMO_OWNER);
		credential = await ensureCredential(client, { baseUrl: sandbox.url, apiKey });
	} catch (error) {
		await deployment.stop();
		await sandbox.stop();
		throw error;
	}
	return {
		runtime,
		runDir,
		userFolder,
		sandbox,
		deployment,
		client,
		credential,
		async stop() {
			await deployment.stop();
			await sandbox.stop();
		},
	};
}
