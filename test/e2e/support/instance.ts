/**
 * One real n8n for the suite: the packed package installed into a fresh user folder under .n8n-e2e/, a fresh
 * sandbox with a random API key, the owner account and the credentials. n8n can be restarted on the same folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { N8nClient } from '../../../scripts/lib/n8n-client';
import { startN8n, type RunningN8n } from '../../../scripts/lib/n8n-process';
import { installPackageTarball, packPackage } from '../../../scripts/lib/package-install';
import { freePort } from '../../../scripts/lib/ports';
import { describeRuntime, ensureN8nRuntime, repoRoot, type N8nRuntime } from '../../../scripts/lib/provision';
import { DEMO_OWNER, ensureCredential, ensureOwner } from '../../../scripts/lib/instance-setup';

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
	n8n: RunningN8n;
	client: N8nClient;
	credential: { id: string; name: string; type: string };
	wrongCredential: { id: string; name: string; type: string };
	wrongApiKey: string;
	restartN8n(): Promise<void>;
	stop(): Promise<void>;
}

export async function startE2eInstance(): Promise<E2eInstance> {
	const runtime = process.env.PROSPECTING_N8N_RUNTIME
		? describeRuntime(process.env.PROSPECTING_N8N_RUNTIME)
		: await ensureN8nRuntime();
	const runDir = path.join(repoRoot, '.n8n-e2e');
	rmSync(runDir, { recursive: true, force: true });
	mkdirSync(runDir, { recursive: true });
	const userFolder = path.join(runDir, 'user');
	const logFile = path.join(runDir, 'n8n.log');

	const tarball = await packPackage(path.join(runDir, 'pack'));
	await installPackageTarball(userFolder, tarball);

	const apiKey = randomApiKey();
	const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', apiKeys: [apiKey] });

	const port = await freePort();
	const encryptionKey = randomBytes(24).toString('hex');
	const start = async () =>
		await startN8n({
			runtime,
			userFolder,
			port,
			brokerPort: await freePort(),
			encryptionKey,
			logFile,
			pidDir: process.env.PROSPECTING_PID_DIR,
			echo: process.env.E2E_ECHO_N8N === 'true',
		});
	let n8n: RunningN8n;
	try {
		n8n = await start();
	} catch (error) {
		await sandbox.stop();
		throw error;
	}
	const client = new N8nClient(n8n.url, runtime.n8nPackageDir);
	let credential: E2eInstance['credential'];
	let wrongCredential: E2eInstance['credential'];
	const wrongApiKey = randomApiKey();
	try {
		await ensureOwner(client, DEMO_OWNER);
		credential = await ensureCredential(client, { baseUrl: sandbox.url, apiKey });
		wrongCredential = await ensureCredential(client, { baseUrl: sandbox.url, apiKey: wrongApiKey }, 'Prospecting API (wrong key)');
	} catch (error) {
		await n8n.stop();
		await sandbox.stop();
		throw error;
	}

	const instance: E2eInstance = {
		runtime,
		runDir,
		userFolder,
		logFile,
		sandbox,
		n8n,
		client,
		credential,
		wrongCredential,
		wrongApiKey,
		async restartN8n() {
			await instance.n8n.stop();
			instance.n8n = await start();
			// Same port, same database: the session cookie stays valid, but sign in again to be independent of it.
			await client.login(DEMO_OWNER.email, DEMO_OWNER.password);
		},
		async stop() {
			await instance.n8n.stop();
			await sandbox.stop();
		},
	};
	return instance;
}
