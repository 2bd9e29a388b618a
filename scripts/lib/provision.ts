/**
 * Locates (and the first time installs) the Node 24 + n8n runtime that scripts/provision-n8n.sh keeps in a cache
 * outside the repository. The shell script does the work and shows progress; this module only runs it and finds
 * the binaries it left behind.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { defaultN8nVersion } from './n8n-versions';

export const repoRoot = path.resolve(__dirname, '..', '..');

export interface N8nRuntime {
	cacheRoot: string;
	/** Node 24 binary n8n runs on. */
	nodeBin: string;
	/** n8n's bin/n8n script (run with nodeBin). */
	n8nBin: string;
	/** n8n's own package folder, to load its dependencies (flatted) from. */
	n8nPackageDir: string;
	n8nVersion: string;
}

export function describeRuntime(cacheRoot: string, n8nVersion = defaultN8nVersion()): N8nRuntime {
	const nodeModules = path.join(cacheRoot, 'node24', 'node_modules', 'node', 'node_modules');
	const platformDir = existsSync(nodeModules)
		? readdirSync(nodeModules).find((entry) => entry.startsWith('node-') && existsSync(path.join(nodeModules, entry, 'bin', 'node')))
		: undefined;
	if (!platformDir) throw new Error(`Node 24 was not found under ${nodeModules}; run npm run provision:n8n`);
	const n8nPackageDir = path.join(cacheRoot, `n8n-${n8nVersion}`, 'node_modules', 'n8n');
	const n8nBin = path.join(n8nPackageDir, 'bin', 'n8n');
	if (!existsSync(n8nBin)) throw new Error(`n8n was not found at ${n8nBin}; run npm run provision:n8n`);
	return { cacheRoot, nodeBin: path.join(nodeModules, platformDir, 'bin', 'node'), n8nBin, n8nPackageDir, n8nVersion };
}

/**
 * Runs the provisioning script for n8n's default version (N8N_VERSION, else the first of scripts/lib/n8n-versions.txt;
 * a no-op after the first time), streaming its progress to stderr.
 * When the caller already provisioned (PROSPECTING_N8N_RUNTIME set by the shell wrappers), reuses that.
 */
export async function ensureN8nRuntime(): Promise<N8nRuntime> {
	const known = process.env.PROSPECTING_N8N_RUNTIME;
	if (known) return describeRuntime(known);
	const script = path.join(repoRoot, 'scripts', 'provision-n8n.sh');
	const stdout = await new Promise<string>((resolve, reject) => {
		const child = spawn('bash', [script], {
			env: { ...process.env, N8N_VERSION: defaultN8nVersion() },
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let out = '';
		child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.on('error', reject);
		child.on('exit', (code) =>
			code === 0 ? resolve(out) : reject(new Error(`n8n provisioning failed (exit ${code}); see the messages above`)),
		);
	});
	const lines = stdout.trim().split('\n');
	return describeRuntime(lines[lines.length - 1].trim());
}
