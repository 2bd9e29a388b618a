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
import path from 'node:path';

import { bootstrapN8n, type N8nInstance } from '../../scripts/lib/bootstrap';
import { stopOnInterrupt } from '../../scripts/lib/interrupt';
import { ensureN8nRuntime } from '../../scripts/lib/provision';
import type { BenchConfig } from '../lib/config';
import { SandboxProcess } from '../../dev/sandbox-client';
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

export async function runRealN8n(config: BenchConfig, options: RealN8nOptions): Promise<RealN8nResult> {
	const { log } = options;
	const runDir = path.join((await ensureN8nRuntime()).cacheRoot, 'bench');
	const sandbox = await SandboxProcess.start({
		windowSeconds: config.windowSeconds,
		readLimit: config.readLimit,
		writeLimit: config.writeLimit,
		dataset: options.smallDataset(config.walkLeads),
	});
	let n8n: N8nInstance | undefined;
	const stopAll = async () => {
		await n8n?.stop().catch(() => undefined);
		await sandbox.stop();
	};
	const removeInterruptHandlers = stopOnInterrupt(stopAll);
	try {
		// The trigger figure needs the package as users install it: built, packed, npm-installed.
		n8n = await bootstrapN8n({
			runDir,
			build: true,
			logLevel: (process.env.BENCH_N8N_LOG_LEVEL as 'warn' | 'info' | 'debug' | undefined) ?? 'warn',
			say: log,
		});
		const result: RealN8nResult = { n8nVersion: n8n.runtime.n8nVersion, startSeconds: n8n.startSeconds, notRun: [] };
		log(`n8n ready in ${result.startSeconds} s`);
		const { client, url: n8nUrl } = n8n;

		if (options.alternative) {
			result.alternative = await runHttpRequestAlternative({ config, client, n8nUrl, sandbox, log });
		}
		if (options.trigger) {
			try {
				result.trigger = await runWebhookLoad({ config, client, n8nUrl, sandbox, log });
			} catch (error) {
				log(`n8n webhook load failed: ${(error as Error).stack ?? error}`);
				result.notRun.push({ figure: 'n8n-trigger', reason: (error as Error).message.slice(0, 500) });
			}
		}
		return result;
	} finally {
		await stopAll();
		removeInterruptHandlers();
	}
}
