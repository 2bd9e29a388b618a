/**
 * n8n in queue mode on one machine, as teams that outgrow one process run it: a main process (editor, REST API,
 * activation of workflows: it registers the triggers' webhooks), one webhook processor (`n8n webhook`: receives
 * production webhook calls, runs the trigger's webhook() and queues the execution), and workers (`n8n worker`: run
 * the queued executions), sharing PostgreSQL (the database) and Redis (the queue), one user folder (with the package
 * installed) and one encryption key. Everything listens on 127.0.0.1.
 *
 * Read from n8n 2.41.1 (commands/webhook.js, commands/worker.js, scaling/*, webhooks/live-webhooks.js):
 * - the main process runs the database migrations at start, so it starts first and alone; the others start once it
 *   is ready (two processes migrating one database at once would collide);
 * - activation happens in the main process, which registers the trigger's remote webhook at its WEBHOOK_URL: that
 *   URL is the webhook processor's, so deliveries reach it (the main process is told not to serve production
 *   webhooks at all, N8N_DISABLE_PRODUCTION_MAIN_PROCESS);
 * - every process starts its own task-runner broker (N8N_RUNNERS_BROKER_PORT, one each) and each worker its own
 *   health server (QUEUE_HEALTH_CHECK_PORT, one each, which is also how readiness is seen);
 * - each process type writes its own event log in the user folder, and two workers would share one: each process
 *   gets its own base name.
 */
import path from 'node:path';

import { startN8n, type RunningN8n } from './n8n-process';
import { freePort } from './ports';
import type { N8nRuntime } from './provision';
import { startQueueServices, type QueueServices } from './queue-services';

export interface QueueDeploymentOptions {
	runtime: N8nRuntime;
	/** Shared by every process; the package must already be installed in it (.n8n/nodes). */
	userFolder: string;
	/** Logs of every process (main.log, webhook.log, worker-1.log, ..., postgres.log, redis.log). */
	logDir: string;
	encryptionKey: string;
	workers?: number;
	/** Executions a worker runs at once (n8n's default: 10). 1 makes simultaneous executions spread over workers. */
	workerConcurrency?: number;
	/** Ports of the editor (main) and of the webhook processor; free ones by default. */
	mainPort?: number;
	webhookPort?: number;
	pidDir?: string;
	echo?: boolean;
	logLevel?: 'error' | 'warn' | 'info' | 'debug';
	/** More settings for every process (a setting a benchmark compares). */
	env?: Record<string, string>;
	/** More settings for each worker, in order (what a benchmark tells the workers apart by). */
	workerEnv?: Array<Record<string, string>>;
	say?: (text: string) => void;
}

export interface RunningQueueDeployment {
	services: QueueServices;
	main: RunningN8n;
	webhook: RunningN8n;
	workers: RunningN8n[];
	/** The editor and REST API (main process). */
	url: string;
	/** Base of production webhook URLs: the webhook processor. */
	webhookUrl: string;
	logFiles: { main: string; webhook: string; workers: string[] };
	/** Indexes of the workers whose log says they ran this execution. */
	workersThatRan(executionId: string): number[];
	stop(): Promise<void>;
}

export async function startQueueDeployment(options: QueueDeploymentOptions): Promise<RunningQueueDeployment> {
	const say = options.say ?? (() => undefined);
	const workerCount = options.workers ?? 2;
	say('Starting PostgreSQL and Redis on loopback (data in a temporary folder)');
	const services = await startQueueServices({ logDir: options.logDir, pidDir: options.pidDir });
	const started: RunningN8n[] = [];
	const stopAll = async () => {
		await Promise.all(started.map(async (process) => await process.stop().catch(() => undefined)));
		await services.stop();
	};
	try {
		const mainPort = options.mainPort ?? (await freePort());
		const webhookPort = options.webhookPort ?? (await freePort());
		const webhookUrl = `http://127.0.0.1:${webhookPort}`;
		const shared: Record<string, string> = {
			EXECUTIONS_MODE: 'queue',
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: services.postgres.host,
			DB_POSTGRESDB_PORT: String(services.postgres.port),
			DB_POSTGRESDB_DATABASE: services.postgres.database,
			DB_POSTGRESDB_USER: services.postgres.user,
			DB_POSTGRESDB_PASSWORD: '',
			QUEUE_BULL_REDIS_HOST: services.redis.host,
			QUEUE_BULL_REDIS_PORT: String(services.redis.port),
			// What the trigger registers on activation (in the main process): the webhook processor.
			N8N_WEBHOOK_URL: `${webhookUrl}/`,
			WEBHOOK_URL: `${webhookUrl}/`,
			N8N_EDITOR_BASE_URL: `http://127.0.0.1:${mainPort}/`,
			...options.env,
		};
		const common = {
			runtime: options.runtime,
			userFolder: options.userFolder,
			encryptionKey: options.encryptionKey,
			pidDir: options.pidDir,
			echo: options.echo,
			logLevel: options.logLevel,
		};
		const logFiles = {
			main: path.join(options.logDir, 'main.log'),
			webhook: path.join(options.logDir, 'webhook.log'),
			workers: Array.from({ length: workerCount }, (_, i) => path.join(options.logDir, `worker-${i + 1}.log`)),
		};

		say(`Starting the n8n main process on http://127.0.0.1:${mainPort} (it migrates the database first)`);
		const main = await startN8n({
			...common,
			port: mainPort,
			brokerPort: await freePort(),
			logFile: logFiles.main,
			command: 'start',
			env: { ...shared, N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true', N8N_EVENTBUS_LOGWRITER_LOGBASENAME: 'n8nEventLog-main' },
		});
		started.push(main);

		say(`Starting the webhook processor on ${webhookUrl} and ${workerCount} worker(s)`);
		const webhookStart = startN8n({
			...common,
			port: webhookPort,
			brokerPort: await freePort(),
			logFile: logFiles.webhook,
			command: 'webhook',
			env: { ...shared, N8N_EVENTBUS_LOGWRITER_LOGBASENAME: 'n8nEventLog-webhook' },
		});
		const workerStarts = await Promise.all(
			logFiles.workers.map(async (logFile, index) => {
				const healthPort = await freePort();
				return startN8n({
					...common,
					// A worker listens only on its health port; N8N_PORT is unused by it.
					port: healthPort,
					brokerPort: await freePort(),
					logFile,
					command: 'worker',
					env: {
						...shared,
						QUEUE_HEALTH_CHECK_ACTIVE: 'true',
						QUEUE_HEALTH_CHECK_PORT: String(healthPort),
						N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
						N8N_EVENTBUS_LOGWRITER_LOGBASENAME: `n8nEventLog-${index + 1}`,
						...(options.workerConcurrency ? { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(options.workerConcurrency) } : {}),
						...options.workerEnv?.[index],
					},
				});
			}),
		);
		const results = await Promise.allSettled([webhookStart, ...workerStarts]);
		for (const result of results) if (result.status === 'fulfilled') started.push(result.value);
		const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
		if (failed) throw failed.reason;
		const [webhook, ...workers] = results.map((result) => (result as PromiseFulfilledResult<RunningN8n>).value);

		return {
			services,
			main,
			webhook,
			workers,
			url: main.url,
			webhookUrl,
			logFiles,
			workersThatRan(executionId: string) {
				const line = new RegExp(`Worker started execution ${executionId} \\(job`);
				return workers.map((worker, index) => (line.test(worker.output()) ? index : -1)).filter((index) => index >= 0);
			},
			stop: stopAll,
		};
	} catch (error) {
		await stopAll();
		throw error;
	}
}
