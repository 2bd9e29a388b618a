/**
 * The figures that need real n8n (2.41.1 on Node 24, provisioned by scripts/provision-n8n.sh):
 * - the alternative: n8n's HTTP Request node with its own pagination and Retry On Fail at its
 *   maximum, on the same walk and the same bulk create as our node, against a sandbox with the
 *   same shortened window, and again with the service's real 60 s window (where n8n's maximum
 *   retry wait keeps its real proportion to the window), plus a variant tuned by hand with the
 *   HTTP Request node's own spacing options;
 * - the trigger: real n8n's production webhook endpoint under autocannon on loopback.
 * n8n is started with the real-n8n tooling of scripts/lib (loopback only, outbound calls off) in a
 * fresh user folder, and stopped (its whole process group) when the figures are done.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { N8nClient } from '../../scripts/lib/n8n-client';
import { ensureOwner } from '../../scripts/lib/instance-setup';
import { startN8n, type RunningN8n } from '../../scripts/lib/n8n-process';
import { installPackageTarball, packPackage } from '../../scripts/lib/package-install';
import { freePort } from '../../scripts/lib/ports';
import { ensureN8nRuntime, repoRoot } from '../../scripts/lib/provision';
import type { BenchConfig } from '../lib/config';
import { round } from '../lib/measure';
import { SandboxProcess } from '../lib/sandbox-client';
import { runHttpRequestAlternative, type AlternativeResult } from './alternative';
import { runWebhookLoad, type WebhookLoadResult } from './webhook-load';

export interface RealN8nOptions {
	alternative: boolean;
	trigger: boolean;
	log: (text: string) => void;
	smallDataset: (leads: number) => Record<string, number>;
}

export interface RealN8nResult {
	n8nVersion: string;
	startSeconds: number;
	alternative?: AlternativeResult[];
	trigger?: WebhookLoadResult;
	notRun: Array<{ figure: string; reason: string }>;
}

const run = promisify(execFile);
const ENCRYPTION_KEY = 'n8n-nodes-prospecting-bench-encryption-key';
const OWNER = { email: 'bench@example.com', firstName: 'Bench', lastName: 'Owner', password: 'Prospecting-bench-1' };

export async function runRealN8n(config: BenchConfig, options: RealN8nOptions): Promise<RealN8nResult> {
	const { log } = options;
	const runtime = await ensureN8nRuntime();
	const benchRoot = path.join(runtime.cacheRoot, 'bench');
	const userFolder = path.join(benchRoot, 'user');
	rmSync(userFolder, { recursive: true, force: true });
	mkdirSync(benchRoot, { recursive: true });
	const result: RealN8nResult = { n8nVersion: runtime.n8nVersion, startSeconds: NaN, notRun: [] };

	if (options.trigger) {
		try {
			// The trigger figure needs the package as users install it: built, packed, npm-installed.
			log('building and packing the package for real n8n');
			await run('npm', ['run', '--silent', 'build'], { cwd: repoRoot, maxBuffer: 32 * 1024 * 1024 });
			const tarball = await packPackage(path.join(benchRoot, 'pack'));
			await installPackageTarball(userFolder, tarball);
		} catch (error) {
			result.notRun.push({ figure: 'n8n-trigger', reason: `package build/install failed: ${(error as Error).message.slice(0, 500)}` });
			options.trigger = false;
		}
	}

	const pidDir = path.join(benchRoot, 'pids');
	let n8n: RunningN8n | undefined;
	const stopOnSignal = () => {
		void n8n?.stop().finally(() => process.exit(130));
	};
	process.once('SIGINT', stopOnSignal);
	process.once('SIGTERM', stopOnSignal);
	const sandbox = await SandboxProcess.start({
		windowSeconds: config.windowSeconds,
		readLimit: config.readLimit,
		writeLimit: config.writeLimit,
		dataset: options.smallDataset(config.walkLeads),
	});
	try {
		const started = performance.now();
		const port = await freePort();
		log(`starting n8n ${runtime.n8nVersion} on 127.0.0.1:${port}`);
		n8n = await startN8n({
			runtime,
			userFolder,
			port,
			brokerPort: await freePort(),
			encryptionKey: ENCRYPTION_KEY,
			logFile: path.join(benchRoot, 'n8n.log'),
			pidDir,
			logLevel: (process.env.BENCH_N8N_LOG_LEVEL as 'warn' | 'info' | 'debug' | undefined) ?? 'warn',
		});
		result.startSeconds = round((performance.now() - started) / 1000, 1);
		log(`n8n ready in ${result.startSeconds} s`);
		const client = new N8nClient(n8n.url, runtime.n8nPackageDir);
		await ensureOwner(client, OWNER);

		if (options.alternative) {
			result.alternative = await runHttpRequestAlternative({ config, client, n8nUrl: n8n.url, sandbox, log });
		}
		if (options.trigger) {
			try {
				result.trigger = await runWebhookLoad({ config, client, n8nUrl: n8n.url, sandbox, log });
			} catch (error) {
				log(`n8n webhook load failed: ${(error as Error).stack ?? error}`);
				result.notRun.push({ figure: 'n8n-trigger', reason: (error as Error).message.slice(0, 500) });
			}
		}
	} finally {
		await n8n?.stop().catch(() => undefined);
		await sandbox.stop();
		process.removeListener('SIGINT', stopOnSignal);
		process.removeListener('SIGTERM', stopOnSignal);
	}
	return result;
}
