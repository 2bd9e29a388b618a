/**
 * The Docker recipe of docs/installation.md walked as a user would, to a first lead, where no Docker engine runs:
 *   `npx ts-node --transpile-only -P tsconfig.json test/docs/docker-walk.ts`
 *
 * 1. Runs the build line's script (what its `sh -c` runs inside the Node.js container) with this machine's Node.js,
 *    in a temporary HOME, with one change: `git clone` takes this checkout's committed HEAD instead of GitHub, and
 *    the container's `/out` is a temporary folder.
 * 2. Runs the install line's npm command in that folder, as its container would, filling `./nodes`.
 * 3. Has Compose (Debian's docker-compose) read the compose file there: `config` needs no engine.
 * 4. Starts n8n from npm as the compose file starts n8n's image: the user folder's nodes folder is `./nodes`, the
 *    environment is the one Compose resolves; then the form example to a lead, as the README walk does.
 * Not a jest test: it takes minutes (npm ci, a build, n8n's start). It prints each step and exits 1 on a failure.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { parse } from 'yaml';

import { startSandbox } from '../../sandbox';
import { bindWorkflow, ensureCredential, ensureOwner, formUrl } from '../../scripts/lib/instance-setup';
import { N8nClient, type WorkflowJson } from '../../scripts/lib/n8n-client';
import { startN8n } from '../../scripts/lib/n8n-process';
import { freePort } from '../../scripts/lib/ports';
import { ensureN8nRuntime, repoRoot } from '../../scripts/lib/provision';

const say = (text: string) => process.stdout.write(`[docker-walk] ${text}\n`);
const guide = readFileSync(path.join(repoRoot, 'docs', 'installation.md'), 'utf8');
const lineStarting = (start: string): string => {
	const line = guide.split('\n').find((candidate) => candidate.startsWith(start));
	if (!line) throw new Error(`docs/installation.md: no line starting with "${start}"`);
	return line;
};

async function main() {
	const work = mkdtempSync(path.join(os.tmpdir(), 'docker-walk-'));
	const home = path.join(work, 'home');
	// The host folder the lines run in; it becomes n8n's `.n8n`, so that `./nodes` is where the compose file mounts it.
	const host = path.join(work, 'user', '.n8n');
	mkdirSync(home, { recursive: true });
	mkdirSync(host, { recursive: true });

	const build = lineStarting('docker run --rm');
	const script = /sh -c '(.*)'$/.exec(build)?.[1];
	if (!script) throw new Error('the build line has no sh -c script');
	const local = script
		.replace(/git clone --depth 1 https:\/\/github\.com\/n8n-nodes-prospecting\/n8n-nodes-prospecting\.git/, `git clone --quiet --depth 1 file://${repoRoot} n8n-nodes-prospecting`)
		.replace(/--pack-destination \/out/, `--pack-destination ${host}`);
	say(`step 1, the build line's script in ${home} (the container's /tmp), /out = ${host}:\n${local}`);
	execFileSync('sh', ['-c', local], {
		cwd: home,
		env: { ...process.env, HOME: home, npm_config_cache: path.join(os.homedir(), '.npm') },
		stdio: ['ignore', 'inherit', 'inherit'],
	});
	say(`built: ${readdirSync(host).join(', ')}`);

	const install = lineStarting('mkdir -p nodes && docker run');
	const command = `mkdir -p nodes && ${install.slice(install.indexOf(' node:20 ') + ' node:20 '.length)}`;
	say(`step 2, the install line's command in ${host}: ${command}`);
	execFileSync('sh', ['-c', command], { cwd: host, env: { ...process.env, HOME: home }, stdio: ['ignore', 'inherit', 'inherit'] });
	say(`./nodes/node_modules: ${readdirSync(path.join(host, 'nodes', 'node_modules')).join(', ')}`);

	copyFileSync(path.join(repoRoot, 'docker', 'compose.yaml'), path.join(host, 'compose.yaml'));
	const publicUrl = 'https://n8n.example.com/';
	say(`step 3, docker-compose config with N8N_PUBLIC_URL=${publicUrl}`);
	const config = execFileSync(process.env.PROSPECTING_DOCKER_COMPOSE ?? 'docker-compose', ['-f', 'compose.yaml', 'config'], {
		cwd: host,
		env: { ...process.env, N8N_PUBLIC_URL: publicUrl },
		encoding: 'utf8',
	});
	process.stdout.write(config);
	const service = (parse(config) as { services: { n8n: { environment: Record<string, string>; volumes: string[] } } }).services.n8n;
	if (!service.volumes.includes(`${path.join(host, 'nodes')}:/home/node/.n8n/nodes:rw`)) throw new Error('./nodes is not mounted at the nodes folder');

	const sandbox = await startSandbox({ port: await freePort(), host: '127.0.0.1' });
	const runtime = await ensureN8nRuntime();
	say(`step 4, n8n ${runtime.n8nVersion} from npm with the user folder ${path.dirname(host)} and the environment Compose gave`);
	const n8n = await startN8n({
		runtime,
		userFolder: path.dirname(host),
		port: await freePort(),
		brokerPort: await freePort(),
		encryptionKey: 'docker-walk',
		logFile: path.join(work, 'n8n.log'),
		env: service.environment,
	});
	try {
		const client = new N8nClient(n8n.url, runtime.n8nPackageDir);
		await ensureOwner(client);
		const types = (await client.nodeTypes()).map((type) => type.name).filter((name) => name.startsWith('n8n-nodes-prospecting.'));
		say(`n8n loaded from ./nodes: ${types.join(', ')}`);
		const credential = await ensureCredential(client, { baseUrl: sandbox.url, apiKey: sandbox.apiKey });
		const example = JSON.parse(readFileSync(path.join(repoRoot, 'examples', 'lead-capture-form.json'), 'utf8')) as WorkflowJson;
		const routine = sandbox.control.routines()[0];
		const stored = await client.createWorkflow(bindWorkflow(example, { credential, routineId: routine.id }));
		await client.activateWorkflow(stored.id, stored.versionId, { wait: true });
		const email = `ana.docker.${Date.now()}@example.com`;
		const form = new FormData();
		for (const [index, value] of ['Ana Docker', 'Docker Ltda', email, '', JSON.stringify(['I agree to be contacted about this request'])].entries()) {
			form.append(`field-${index}`, value);
		}
		const answer = await fetch(formUrl(n8n.url, example, 'Lead form'), { method: 'POST', body: form });
		say(`the form answered ${answer.status}`);
		await client.waitForExecutions(stored.id, 1, 60_000);
		const lead = sandbox.control.leads().find((candidate) => candidate.emails.some((item) => item.value === email));
		if (!lead?.routineIds.includes(routine.id)) throw new Error(`no lead for ${email} in routine ${routine.id}`);
		say(`walked: lead ${lead.id} "${lead.name}" in routine ${routine.id}`);
	} finally {
		await n8n.stop();
		await sandbox.stop();
		if (process.env.KEEP_WALK !== 'true') rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`[docker-walk] FAILED: ${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});
