/**
 * The manual install of docs/installation.md, done the way a self-hosted user does it: the command the docs show
 * (scripts/lib/manual-install.ts), run with the machine's npm on a clean user folder, then n8n started on that
 * folder. Checks what the user gets: the package alone (no `n8n-workflow`, no `isolated-vm`), and n8n loading the
 * three nodes and the credential; and that N8N_UNVERIFIED_PACKAGES_ENABLED=false does not stop a package installed
 * this way from loading (the docs' Compatibility note).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { N8nClient } from '../../scripts/lib/n8n-client';
import { startN8n, type RunningN8n } from '../../scripts/lib/n8n-process';
import { DEFAULT_NODES_FOLDER, manualInstallArgs, manualInstallCommand } from '../../scripts/lib/manual-install';
import { packPackage } from '../../scripts/lib/package-install';
import { freePort } from '../../scripts/lib/ports';
import { describeRuntime, ensureN8nRuntime, repoRoot, type N8nRuntime } from '../../scripts/lib/provision';
import { DEMO_OWNER, ensureOwner } from '../../scripts/lib/instance-setup';

jest.setTimeout(300_000);

const run = promisify(execFile);
const PACKAGE = 'n8n-nodes-prospecting';
const NODE_TYPES = ['prospecting', 'prospectingTrigger', 'prospectingPollTrigger'].map((name) => `${PACKAGE}.${name}`);

let runtime: N8nRuntime;
let runDir: string;
let userFolder: string;
let nodesFolder: string;
let tarball: string;
let n8n: RunningN8n | undefined;
/** One key for both starts: n8n keeps it in the user folder's settings and refuses another one. */
const encryptionKey = randomBytes(24).toString('hex');

beforeAll(async () => {
	runtime = process.env.PROSPECTING_N8N_RUNTIME ? describeRuntime(process.env.PROSPECTING_N8N_RUNTIME) : await ensureN8nRuntime();
	runDir = path.join(repoRoot, '.n8n-e2e-manual-install');
	rmSync(runDir, { recursive: true, force: true });
	tarball = await packPackage(path.join(runDir, 'pack'));
	// A user folder n8n has never seen: no .n8n, no nodes folder, no package.json.
	userFolder = path.join(runDir, 'user');
	nodesFolder = path.join(userFolder, '.n8n', 'nodes');
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
});

/** The environment a user's shell has: none of the npm_* settings `npm run` hands to this process. */
function userEnvironment(): NodeJS.ProcessEnv {
	return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
}

/** Total size of the files under a folder, in bytes. */
function folderSize(folder: string): number {
	return readdirSync(folder, { withFileTypes: true }).reduce((total, entry) => {
		const full = path.join(folder, entry.name);
		return total + (entry.isDirectory() ? folderSize(full) : statSync(full).size);
	}, 0);
}

async function start(env: Record<string, string> = {}): Promise<N8nClient> {
	n8n = await startN8n({
		runtime,
		userFolder,
		port: await freePort(),
		brokerPort: await freePort(),
		encryptionKey,
		logFile: path.join(runDir, 'n8n.log'),
		pidDir: process.env.PROSPECTING_PID_DIR,
		env,
	});
	const client = new N8nClient(n8n.url, runtime.n8nPackageDir);
	await ensureOwner(client, DEMO_OWNER);
	return client;
}

async function expectPackageLoaded(client: N8nClient): Promise<void> {
	expect((await client.nodeTypes()).map((t) => t.name)).toEqual(expect.arrayContaining(NODE_TYPES));
	expect((await client.credentialTypes()).map((t) => t.name)).toContain('prospectingApi');
	expect(n8n!.output()).not.toMatch(/Failed to load package "n8n-nodes-prospecting"/);
}

describe('the manual install of the installation guide', () => {
	test('the guide shows the command this test runs, for the npm package and for a tarball', () => {
		const guide = readFileSync(path.join(repoRoot, 'docs', 'installation.md'), 'utf8');
		expect(guide).toContain(manualInstallCommand(DEFAULT_NODES_FOLDER, PACKAGE));
		expect(guide).toContain(manualInstallCommand(DEFAULT_NODES_FOLDER, `/path/to/${PACKAGE}-<version>.tgz`));
	});

	test("the command installs the package alone into a clean user folder with the machine's npm: no n8n-workflow, no isolated-vm, under 1 MB", async () => {
		expect(existsSync(userFolder)).toBe(false);
		await run('npm', manualInstallArgs(nodesFolder, tarball), { cwd: repoRoot, env: userEnvironment(), maxBuffer: 16 * 1024 * 1024 });

		const installed = readdirSync(path.join(nodesFolder, 'node_modules')).filter((entry) => !entry.startsWith('.'));
		expect(installed).toEqual([PACKAGE]);
		expect(existsSync(path.join(nodesFolder, 'node_modules', 'n8n-workflow'))).toBe(false);
		expect(existsSync(path.join(nodesFolder, 'node_modules', 'isolated-vm'))).toBe(false);
		expect(folderSize(path.join(nodesFolder, 'node_modules'))).toBeLessThan(1024 * 1024);
		// Installed in the nodes folder itself, which now records it, and nowhere above it.
		const manifest = JSON.parse(readFileSync(path.join(nodesFolder, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
		expect(Object.keys(manifest.dependencies)).toEqual([PACKAGE]);
		expect(existsSync(path.join(userFolder, 'node_modules'))).toBe(false);
		expect(existsSync(path.join(runDir, 'node_modules'))).toBe(false);
	});

	test('n8n started on that user folder loads the three nodes and the credential', async () => {
		const client = await start();
		await expectPackageLoaded(client);
		await n8n!.stop();
		n8n = undefined;
	});

	test('with N8N_UNVERIFIED_PACKAGES_ENABLED=false the package installed this way still loads, and the editor is told unverified installs are off', async () => {
		const client = await start({ N8N_UNVERIFIED_PACKAGES_ENABLED: 'false' });
		await expectPackageLoaded(client);
		const settings = await client.request<{ unverifiedCommunityNodesEnabled?: boolean }>('GET', '/rest/settings');
		expect(settings.unverifiedCommunityNodesEnabled).toBe(false);
		await n8n!.stop();
		n8n = undefined;
	});
});
