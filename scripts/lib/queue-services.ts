/**
 * PostgreSQL and Redis for n8n's queue mode, started for one run: on 127.0.0.1, on free ports, with their data in a
 * temporary folder that is removed when they stop. The Debian packages are installed by
 * scripts/provision-queue-services.sh when missing. PostgreSQL refuses to run as root, so as root its server runs as
 * the `postgres` user (runuser) with a data folder owned by it. Each server runs in its own process group, with a pid
 * file in the shell wrappers' pid folder, so that their exit trap stops it if this Node process dies first.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { freePort } from './ports';
import { repoRoot } from './provision';

const run = promisify(execFile);

export interface RunningService {
	name: 'postgres' | 'redis';
	host: '127.0.0.1';
	port: number;
	pid: number;
	logFile: string;
	stop(): Promise<void>;
}

export interface RunningPostgres extends RunningService {
	database: string;
	user: string;
}

export interface QueueServices {
	postgres: RunningPostgres;
	redis: RunningService;
	stop(): Promise<void>;
}

export interface QueueServicesOptions {
	/** Where the servers' logs go (their data goes to a temporary folder). */
	logDir: string;
	/** Folder for pid files the shell wrappers clean up on exit. */
	pidDir?: string;
}

/** Installs the Debian packages when missing (a no-op otherwise); returns PostgreSQL's bin folder. */
export function ensureQueueServicePackages(): string {
	const result = spawnSync('bash', [path.join(repoRoot, 'scripts', 'provision-queue-services.sh')], {
		stdio: ['ignore', 'pipe', 'inherit'],
		encoding: 'utf8',
	});
	if (result.status !== 0) throw new Error('PostgreSQL and Redis could not be provisioned; see the messages above');
	return result.stdout.trim().split('\n').pop()!.trim();
}

export async function startQueueServices(options: QueueServicesOptions): Promise<QueueServices> {
	const binDir = ensureQueueServicePackages();
	mkdirSync(options.logDir, { recursive: true });
	const [postgres, redis] = await Promise.allSettled([
		startPostgres(binDir, options),
		startRedis(options),
	]);
	if (postgres.status === 'rejected' || redis.status === 'rejected') {
		if (postgres.status === 'fulfilled') await postgres.value.stop();
		if (redis.status === 'fulfilled') await redis.value.stop();
		throw postgres.status === 'rejected' ? postgres.reason : (redis as PromiseRejectedResult).reason;
	}
	return {
		postgres: postgres.value,
		redis: redis.value,
		async stop() {
			await Promise.all([postgres.value.stop(), redis.value.stop()]);
		},
	};
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** As root: the command as the `postgres` user. Otherwise: as is (PostgreSQL runs as any user but root). */
function asPostgresUser(command: string, args: string[]): [string, string[]] {
	return isRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

async function startPostgres(binDir: string, options: QueueServicesOptions): Promise<RunningPostgres> {
	const root = mkdtempSync(path.join(os.tmpdir(), 'prospecting-postgres-'));
	if (isRoot()) {
		const { stdout } = await run('id', ['-u', 'postgres']);
		const { stdout: gid } = await run('id', ['-g', 'postgres']);
		chownSync(root, Number(stdout.trim()), Number(gid.trim()));
	}
	const dataDir = path.join(root, 'data');
	const removeRoot = () => rmSync(root, { recursive: true, force: true });
	try {
		const [initdb, initdbArgs] = asPostgresUser(path.join(binDir, 'initdb'), [
			'-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync',
		]);
		await run(initdb, initdbArgs, { cwd: root, maxBuffer: 8 * 1024 * 1024 });
	} catch (error) {
		removeRoot();
		throw new Error(`initdb failed: ${(error as { stderr?: string }).stderr ?? (error as Error).message}`);
	}
	const port = await freePort();
	const logFile = path.join(options.logDir, 'postgres.log');
	const [command, args] = asPostgresUser(path.join(binDir, 'postgres'), [
		'-D', dataDir,
		'-c', 'listen_addresses=127.0.0.1',
		'-c', `port=${port}`,
		'-c', `unix_socket_directories=${root}`,
		// Throwaway data: durability is not wanted, speed is.
		'-c', 'fsync=off',
		'-c', 'synchronous_commit=off',
		'-c', 'full_page_writes=off',
	]);
	const service = await startDaemon({
		name: 'postgres',
		command,
		args,
		cwd: root,
		port,
		logFile,
		pidDir: options.pidDir,
		// SIGINT is PostgreSQL's fast shutdown (SIGTERM waits for clients to leave).
		stopSignal: 'SIGINT',
		cleanup: removeRoot,
		ready: async () => {
			try {
				await run(path.join(binDir, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-t', '2']);
				return true;
			} catch {
				return false;
			}
		},
	});
	try {
		await run(path.join(binDir, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'n8n']);
	} catch (error) {
		await service.stop();
		throw new Error(`createdb failed: ${(error as { stderr?: string }).stderr ?? (error as Error).message}`);
	}
	return { ...service, name: 'postgres', database: 'n8n', user: 'postgres' };
}

async function startRedis(options: QueueServicesOptions): Promise<RunningService> {
	const root = mkdtempSync(path.join(os.tmpdir(), 'prospecting-redis-'));
	const port = await freePort();
	return await startDaemon({
		name: 'redis',
		command: 'redis-server',
		// No persistence at all: the queue lives as long as this run.
		args: ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', root, '--daemonize', 'no'],
		cwd: root,
		port,
		logFile: path.join(options.logDir, 'redis.log'),
		pidDir: options.pidDir,
		stopSignal: 'SIGTERM',
		cleanup: () => rmSync(root, { recursive: true, force: true }),
		ready: async () => (await redisPing(port)) === '+PONG',
	});
}

interface DaemonOptions {
	name: 'postgres' | 'redis';
	command: string;
	args: string[];
	cwd: string;
	port: number;
	logFile: string;
	pidDir?: string;
	stopSignal: NodeJS.Signals;
	cleanup: () => void;
	ready: () => Promise<boolean>;
	readyTimeoutMs?: number;
}

async function startDaemon(options: DaemonOptions): Promise<RunningService> {
	const logFd = openSync(options.logFile, 'a');
	const child: ChildProcess = spawn(options.command, options.args, {
		cwd: options.cwd,
		detached: true,
		stdio: ['ignore', logFd, logFd],
	});
	closeSync(logFd);
	const pid = child.pid;
	if (pid === undefined) {
		options.cleanup();
		throw new Error(`${options.name} could not be started`);
	}
	const pidFile = options.pidDir ? path.join(options.pidDir, `${options.name}-${pid}.pid`) : undefined;
	if (pidFile && options.pidDir) {
		mkdirSync(options.pidDir, { recursive: true });
		writeFileSync(pidFile, String(pid));
	}
	let exited = false;
	const exitPromise = new Promise<void>((resolve) =>
		child.on('exit', () => {
			exited = true;
			if (pidFile) rmSync(pidFile, { force: true });
			resolve();
		}),
	);
	let stopped = false;
	const stop = async () => {
		if (stopped) return;
		stopped = true;
		if (!exited) {
			signalGroup(pid, options.stopSignal);
			const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), 15_000);
			await exitPromise;
			clearTimeout(timer);
		}
		signalGroup(pid, 'SIGKILL');
		options.cleanup();
	};
	const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
	while (Date.now() < deadline) {
		if (exited) {
			await stop();
			throw new Error(`${options.name} exited during start-up:\n${readFileSync(options.logFile, 'utf8').slice(-3000)}`);
		}
		if (await options.ready()) return { name: options.name, host: '127.0.0.1', port: options.port, pid, logFile: options.logFile, stop };
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	await stop();
	throw new Error(`${options.name} was not ready within ${(options.readyTimeoutMs ?? 60_000) / 1000} s`);
}

/** One PING over Redis's protocol (no client library needed). */
async function redisPing(port: number): Promise<string | undefined> {
	return await new Promise((resolve) => {
		const socket = net.connect({ host: '127.0.0.1', port });
		const timer = setTimeout(() => {
			socket.destroy();
			resolve(undefined);
		}, 2000);
		socket.once('error', () => {
			clearTimeout(timer);
			resolve(undefined);
		});
		socket.once('connect', () => socket.write('PING\r\n'));
		socket.once('data', (data) => {
			clearTimeout(timer);
			socket.end();
			resolve(data.toString('utf8').trim());
		});
	});
}

function signalGroup(pid: number, signal: NodeJS.Signals) {
	try {
		process.kill(-pid, signal);
	} catch {
		// Already gone.
	}
}
