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
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { parse } from 'yaml';

import { repoRoot } from '../../scripts/lib/provision';
import { runWalk, sayer, walkToFirstLead } from './walk-to-lead';

const say = sayer('docker-walk');
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

	say('step 4, n8n as the compose file starts its image: the user folder\'s nodes folder is ./nodes, the environment Compose gave');
	const example = path.join(repoRoot, 'examples', 'lead-capture-form.json');
	await walkToFirstLead({ name: 'docker-walk', work, userFolder: path.dirname(host), env: service.environment, example, person: 'Ana Docker' });
}

runWalk('docker-walk', main);
