/**
 * Starts and stops a real n8n on loopback. n8n runs in its own process group (it starts a task-runner child), so
 * stopping it ends the whole group; its pid is also written to a pid file that the shell wrappers' traps use if
 * this Node process itself is killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { n8nEnvironment, type N8nEnvOptions } from './n8n-env';
import { n8nMajor } from './n8n-versions';
import type { N8nRuntime } from './provision';

export interface StartN8nOptions extends N8nEnvOptions {
	runtime: N8nRuntime;
	/** n8n's stdout and stderr are appended here (kept for inspection and for the API-key scan). */
	logFile: string;
	/** Folder for pid files the shell wrappers clean up on exit. */
	pidDir?: string;
	/** Echo n8n's output to this process's stderr. */
	echo?: boolean;
	readyTimeoutMs?: number;
	/** n8n's command: `start` (default; the main process), or in queue mode `webhook` or `worker`. */
	command?: 'start' | 'webhook' | 'worker';
	/** Set after the loopback environment, overriding it (queue mode: database, Redis, webhook URL; a setting a benchmark compares). */
	env?: Record<string, string>;
}

export interface RunningN8n {
	url: string; // http://127.0.0.1:PORT, no trailing slash
	port: number;
	pid: number;
	/** Everything n8n printed since it started. */
	output(): string;
	stop(): Promise<void>;
}

export async function startN8n(options: StartN8nOptions): Promise<RunningN8n> {
	const { runtime } = options;
	mkdirSync(options.userFolder, { recursive: true });
	mkdirSync(path.dirname(options.logFile), { recursive: true });
	const env: NodeJS.ProcessEnv = {
		...withoutNpmVariables(process.env),
		...n8nEnvironment({ n8nVersion: runtime.n8nVersion, ...options }),
		...options.env,
		PATH: `${path.dirname(runtime.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
	};
	// n8n writes straight to the log file (not through a pipe), so it never blocks or fails on a closed pipe if
	// this process dies first; the shell wrappers' traps then stop it from its pid file.
	const logStart = existsSize(options.logFile);
	const logFd = openSync(options.logFile, 'a');
	const child: ChildProcess = spawn(runtime.nodeBin, [runtime.n8nBin, options.command ?? 'start'], {
		env,
		cwd: options.userFolder,
		detached: true,
		stdio: ['ignore', logFd, logFd],
	});
	closeSync(logFd);
	const pid = child.pid;
	if (pid === undefined) throw new Error('n8n could not be started');
	const pidFile = options.pidDir ? path.join(options.pidDir, `n8n-${pid}.pid`) : undefined;
	if (pidFile && options.pidDir) {
		mkdirSync(options.pidDir, { recursive: true });
		writeFileSync(pidFile, String(pid));
	}

	const output = () => readFileSync(options.logFile).subarray(logStart).toString('utf8');
	let echoed = 0;
	const echo = options.echo
		? setInterval(() => {
				const text = output();
				if (text.length > echoed) process.stderr.write(text.slice(echoed).replace(/^(?=.)/gm, '[n8n] '));
				echoed = text.length;
			}, 500)
		: undefined;
	let exited = false;
	const exitPromise = new Promise<void>((resolve) =>
		child.on('exit', () => {
			exited = true;
			if (echo) clearInterval(echo);
			if (pidFile) rmSync(pidFile, { force: true });
			resolve();
		}),
	);

	const url = `http://127.0.0.1:${options.port}`;
	const stop = async () => {
		if (exited) return;
		signalGroup(pid, 'SIGTERM');
		const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), 20_000);
		await exitPromise;
		clearTimeout(timer);
		// The task runner child is in the same group; make sure it is gone too.
		signalGroup(pid, 'SIGKILL');
	};

	// n8n 1.x answers REST calls before it has activated the stored workflows (their webhooks 404 until then) and
	// prints its editor URL once they are; with 2.x the harness follows each workflow's publication status instead.
	const activatesAfterReady = n8nMajor(runtime.n8nVersion) < 2;
	const deadline = Date.now() + (options.readyTimeoutMs ?? 180_000);
	while (Date.now() < deadline) {
		if (exited) {
			throw new Error(`n8n exited during start-up. Its output:\n${output().slice(-4000)}`);
		}
		const command = options.command ?? 'start';
		// n8n 1.x activates workflows only after it answers ready; only the main process activates them.
		if ((await isReady(url, command)) && (command !== 'start' || !activatesAfterReady || ACTIVATION_DONE.test(output()))) {
			return { url, port: options.port, pid, output, stop };
		}
		await delay(300);
	}
	await stop();
	throw new Error(`n8n was not ready within ${(options.readyTimeoutMs ?? 180_000) / 1000} s. Its output:\n${output().slice(-4000)}`);
}

/** What `n8n start` prints once its active workflows are activated (1.123.81 and 2.41.1 alike). */
const ACTIVATION_DONE = /Editor is now accessible via:/;

/**
 * n8n answers /healthz before migrations finish; /healthz/readiness only once the database is usable. A webhook
 * processor serves no /rest; a worker serves only its health endpoint (QUEUE_HEALTH_CHECK_PORT, passed as `port`).
 */
async function isReady(url: string, command: 'start' | 'webhook' | 'worker'): Promise<boolean> {
	try {
		if (command !== 'start') {
			return (await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) })).status === 200;
		}
		const [readiness, rest] = await Promise.all([
			fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) }),
			fetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(2000) }),
		]);
		return readiness.status === 200 && rest.status === 200;
	} catch {
		return false;
	}
}

function existsSize(file: string): number {
	try {
		return statSync(file).size;
	} catch {
		return 0;
	}
}

function signalGroup(pid: number, signal: NodeJS.Signals) {
	try {
		process.kill(-pid, signal);
	} catch {
		// Already gone.
	}
}

/**
 * The environment n8n inherits, minus what would change its behaviour: npm's npm_config_* (n8n's own npm calls must
 * not take this project's settings), jest's NODE_ENV=test (n8n refuses to load nodes "in tests") and JEST_*,
 * ts-node's settings, and any N8N_* of the caller (n8nEnvironment decides those).
 */
function withoutNpmVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
	const result: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(env)) {
		const dropped =
			key.toLowerCase().startsWith('npm_') ||
			key.startsWith('N8N_') ||
			key.startsWith('JEST_') ||
			key.startsWith('TS_NODE_') ||
			['WEBHOOK_URL', 'NODE_ENV', 'NODE_OPTIONS', 'NODE_PATH', 'INIT_CWD'].includes(key);
		if (!dropped) result[key] = value;
	}
	return result;
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
