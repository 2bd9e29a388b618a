/**
 * The Docker recipe of docs/installation.md, checked without a Docker engine (none runs on these machines): Compose
 * itself (Debian's docker-compose, which scripts/e2e.sh provisions) reads docker/compose.yaml; the guide's install
 * line runs with this machine's npm in place of its Node.js container; and n8n from npm starts as the compose file
 * starts n8n's image: its nodes folder is the `./nodes` that line filled, its environment the one Compose resolves.
 * What n8n's image adds (the user `node`, the user folder /home/node/.n8n) is read from n8n's Dockerfile, not run.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { parse } from 'yaml';

import { startSandbox, type RunningSandbox } from '../../sandbox';
import { bindWorkflow, ensureCredential, ensureOwner } from '../../scripts/lib/instance-setup';
import { N8nClient, type WorkflowJson } from '../../scripts/lib/n8n-client';
import { startN8n, type RunningN8n } from '../../scripts/lib/n8n-process';
import { packPackage } from '../../scripts/lib/package-install';
import { freePort } from '../../scripts/lib/ports';
import { describeRuntime, ensureN8nRuntime, repoRoot, type N8nRuntime } from '../../scripts/lib/provision';
import { waitFor } from './support/waits';

jest.setTimeout(300_000);

const run = promisify(execFile);
const compose = process.env.PROSPECTING_DOCKER_COMPOSE ?? 'docker-compose';
const PUBLIC_URL = 'https://n8n.example.com/';

let runtime: N8nRuntime;
let runDir: string;
/** Where the compose file lies beside `./nodes`: n8n's user folder's `.n8n`, so that `./nodes` is its nodes folder. */
let composeDir: string;
let tarball: string;
let resolved: { image: string; environment: Record<string, string>; volumes: string[] };
let n8n: RunningN8n | undefined;
let sandbox: RunningSandbox | undefined;

beforeAll(async () => {
	runtime = process.env.PROSPECTING_N8N_RUNTIME ? describeRuntime(process.env.PROSPECTING_N8N_RUNTIME) : await ensureN8nRuntime();
	runDir = path.join(repoRoot, '.n8n-e2e-docker');
	rmSync(runDir, { recursive: true, force: true });
	composeDir = path.join(runDir, 'user', '.n8n');
	mkdirSync(composeDir, { recursive: true });
	copyFileSync(path.join(repoRoot, 'docker', 'compose.yaml'), path.join(composeDir, 'compose.yaml'));
	tarball = await packPackage(path.join(runDir, 'pack'));
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.stop();
});

/** A line of the guide's Docker section that starts with `start`. */
function guideLine(start: string): string {
	const guide = readFileSync(path.join(repoRoot, 'docs', 'installation.md'), 'utf8');
	const line = guide.split('\n').find((candidate) => candidate.startsWith(start));
	if (!line) throw new Error(`docs/installation.md has no line starting with "${start}"`);
	return line;
}

describe('the Docker recipe of the installation guide', () => {
	test("Compose reads docker/compose.yaml: n8n's image, its user folder on a volume, ./nodes at its nodes folder, the public address in both webhook variables", async () => {
		const env: NodeJS.ProcessEnv = { ...process.env, N8N_PUBLIC_URL: PUBLIC_URL };
		delete env.N8N_VERSION;
		const { stdout } = await run(compose, ['-f', 'compose.yaml', 'config'], { cwd: composeDir, env });
		const config = parse(stdout) as { services: Record<string, typeof resolved>; volumes: Record<string, unknown> };
		expect(Object.keys(config.services)).toEqual(['n8n']);
		resolved = config.services.n8n;
		expect(resolved.image).toBe('docker.n8n.io/n8nio/n8n:latest');
		expect([...resolved.volumes].sort()).toEqual([`${path.join(composeDir, 'nodes')}:/home/node/.n8n/nodes:rw`, 'n8n_data:/home/node/.n8n:rw']);
		expect(Object.keys(config.volumes)).toEqual(['n8n_data']);
		expect(resolved.environment).toEqual({ N8N_WEBHOOK_URL: PUBLIC_URL, WEBHOOK_URL: PUBLIC_URL });
	});

	test("the guide's install line, with this machine's npm in place of the Node.js container, puts the package alone in ./nodes", async () => {
		const line = guideLine('mkdir -p nodes && docker run');
		const command = line.slice(line.indexOf(' node:20 ') + ' node:20 '.length);
		expect(command).toBe('npm install --prefix ./nodes --omit=peer ./n8n-nodes-prospecting-*.tgz');
		copyFileSync(tarball, path.join(composeDir, path.basename(tarball)));
		await run('sh', ['-c', `mkdir -p nodes && ${command}`], { cwd: composeDir, maxBuffer: 16 * 1024 * 1024 });
		expect(readdirSync(path.join(composeDir, 'nodes', 'node_modules')).filter((entry) => !entry.startsWith('.'))).toEqual(['n8n-nodes-prospecting']);
	});

	test('n8n started as the compose file starts it loads the nodes from ./nodes, and registers the trigger at the address of the webhook variable its version reads', async () => {
		sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
		// Two addresses, to see which variable this n8n reads; the compose file gives both the same one.
		const olderName = 'https://older-variable.example.com/';
		n8n = await startN8n({
			runtime,
			userFolder: path.dirname(composeDir),
			port: await freePort(),
			brokerPort: await freePort(),
			encryptionKey: randomBytes(24).toString('hex'),
			logFile: path.join(runDir, 'n8n.log'),
			pidDir: process.env.PROSPECTING_PID_DIR,
			env: { ...resolved.environment, WEBHOOK_URL: olderName },
		});
		const client = new N8nClient(n8n.url, runtime.n8nPackageDir);
		await ensureOwner(client);
		expect((await client.nodeTypes()).map((type) => type.name)).toContain('n8n-nodes-prospecting.prospectingTrigger');

		const credential = await ensureCredential(client, { baseUrl: sandbox.url, apiKey: sandbox.apiKey });
		const example = JSON.parse(readFileSync(path.join(repoRoot, 'examples', 'won-lost-message.json'), 'utf8')) as WorkflowJson;
		const workflow = await client.createWorkflow(bindWorkflow(example, { credential }));
		await client.activateWorkflow(workflow.id, workflow.versionId);
		const [registered] = await waitFor(
			'the trigger registered with the service',
			() => sandbox!.control.webhooks(),
			(webhooks) => webhooks.length === 1,
			60_000,
		);
		const [major, minor] = runtime.n8nVersion.split('.').map(Number);
		const readsNewName = major > 2 || (major === 2 && minor >= 30);
		process.stderr.write(`[e2e] n8n ${runtime.n8nVersion} registered its trigger at ${registered.url}\n`);
		expect(registered.url.startsWith(`${readsNewName ? PUBLIC_URL : olderName}webhook/`)).toBe(true);
	});
});
