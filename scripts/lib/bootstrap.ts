/**
 * One real n8n with this package installed, the way the demo, the end-to-end suite and the benchmarks all start it:
 * runtime (Node 24 + n8n, provisioned the first time) → optional build → `npm pack` → install into a user folder's
 * .n8n/nodes → start on 127.0.0.1 (one process, or queue mode: main, webhook processor, workers) → owner signed in.
 * Everything the call started is stopped by `stop()`, and by the call itself when a step fails.
 *
 *   const n8n = await bootstrapN8n({ runDir: path.join(repoRoot, '.n8n-mine') });
 *   await n8n.client.createWorkflow(...);            // REST client, signed in as DEMO_OWNER
 *   await fetch(`${n8n.webhookUrl}/webhook/my-path`); // production webhooks (the webhook processor in queue mode)
 *   await n8n.stop();
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { DEMO_OWNER, ensureOwner } from './instance-setup';
import { N8nClient, type Owner } from './n8n-client';
import { startN8n, type RunningN8n } from './n8n-process';
import { buildPackage, installPackageTarball, packPackage } from './package-install';
import { freePort } from './ports';
import { ensureN8nRuntime, type N8nRuntime } from './provision';
import { startQueueDeployment, type RunningQueueDeployment } from './queue-deployment';

export interface BootstrapOptions {
	/** This run's folder: user/ (n8n's user folder), pack/ (the tarball), logs/ (every process's log). */
	runDir: string;
	/** Reuse user/ (database, credentials, workflows) and logs/ of an earlier run; by default both start empty. */
	keep?: boolean;
	/** Run `npm run build` first; the shell wrappers of the demo and the e2e suite have built already. */
	build?: boolean;
	/** Queue mode (PostgreSQL and Redis on loopback); one process when absent. */
	queue?: { workers?: number; workerConcurrency?: number; workerEnv?: Array<Record<string, string>> };
	/** Port of the editor and REST API; a free one by default. */
	port?: number;
	/** Fixed when a kept user folder must still decrypt its credentials; random by default. */
	encryptionKey?: string;
	/** Signed in (created on an empty user folder); default DEMO_OWNER. */
	owner?: Owner;
	logLevel?: 'error' | 'warn' | 'info' | 'debug';
	/** More n8n settings for every process (a setting a benchmark compares). */
	env?: Record<string, string>;
	/** Echo n8n's output to stderr (E2E_ECHO_N8N=true does it for the suite). */
	echo?: boolean;
	/** Progress lines. */
	say?: (text: string) => void;
}

export interface N8nInstance {
	runtime: N8nRuntime;
	userFolder: string;
	/** Editor and REST API. */
	url: string;
	/** Base of production webhook URLs: the main process, or the webhook processor in queue mode. */
	webhookUrl: string;
	/** REST client signed in as the owner. */
	client: N8nClient;
	/** The n8n process (queue mode: the main process); replaced by `restart()`. */
	main: RunningN8n;
	/** Queue mode only: every process, the services and their logs. */
	queue?: RunningQueueDeployment;
	/** The main process's log. */
	logFile: string;
	/** How long n8n took to be ready (without the build and the install). */
	startSeconds: number;
	/** One process only: stops n8n and starts it again on the same port and user folder, owner signed in again. */
	restart(): Promise<void>;
	stop(): Promise<void>;
}

export async function bootstrapN8n(options: BootstrapOptions): Promise<N8nInstance> {
	const say = options.say ?? (() => undefined);
	const runtime = await ensureN8nRuntime();
	const userFolder = path.join(options.runDir, 'user');
	const logDir = path.join(options.runDir, 'logs');
	if (!options.keep) {
		rmSync(userFolder, { recursive: true, force: true });
		rmSync(logDir, { recursive: true, force: true });
	}
	mkdirSync(logDir, { recursive: true });

	if (options.build) {
		say('Building the package');
		await buildPackage();
	}
	say('Packing the package and installing the tarball into the n8n user folder (.n8n/nodes)');
	const installed = await installPackageTarball(userFolder, await packPackage(path.join(options.runDir, 'pack')));
	say(`Installed ${installed.name}@${installed.version}`);

	const common = {
		runtime,
		userFolder,
		encryptionKey: options.encryptionKey ?? randomBytes(24).toString('hex'),
		// The shell wrappers' traps stop every process whose pid file is here, even if this process is killed.
		pidDir: process.env.PROSPECTING_PID_DIR ?? path.join(options.runDir, 'pids'),
		echo: options.echo,
		logLevel: options.logLevel,
		env: options.env,
	};
	const port = options.port ?? (await freePort());
	let main: RunningN8n;
	let queue: RunningQueueDeployment | undefined;
	let logFile: string;
	const startedAt = performance.now();
	const startOne = async () =>
		await startN8n({ ...common, port, brokerPort: await freePort(), logFile: path.join(logDir, 'n8n.log') });
	if (options.queue) {
		say(`Starting n8n ${runtime.n8nVersion} in queue mode (about 40 s)`);
		queue = await startQueueDeployment({ ...common, ...options.queue, logDir, mainPort: port, say });
		main = queue.main;
		logFile = queue.logFiles.main;
	} else {
		say(`Starting n8n ${runtime.n8nVersion} on http://127.0.0.1:${port} (about 15 s)`);
		main = await startOne();
		logFile = path.join(logDir, 'n8n.log');
	}

	const startSeconds = Math.round((performance.now() - startedAt) / 100) / 10;
	const owner = options.owner ?? DEMO_OWNER;
	const client = new N8nClient(main.url, runtime.n8nPackageDir);
	const instance: N8nInstance = {
		runtime,
		userFolder,
		url: main.url,
		webhookUrl: queue?.webhookUrl ?? main.url,
		client,
		main,
		queue,
		logFile,
		startSeconds,
		async restart() {
			if (queue) throw new Error('restart() is for one n8n process; queue mode is started anew');
			await instance.main.stop();
			instance.main = await startOne();
			await client.login(owner.email, owner.password);
		},
		async stop() {
			await (queue ?? instance.main).stop();
		},
	};
	try {
		await ensureOwner(client, owner);
	} catch (error) {
		await instance.stop();
		throw error;
	}
	return instance;
}
