/**
 * The README walked as a new user on a self-hosted n8n, to a first lead from the form:
 *   `npx ts-node --transpile-only -P tsconfig.json test/docs/readme-walk.ts`
 *
 * 1. Runs the Quick start's shell block as written, in a temporary HOME (so `~/.n8n/nodes` is that HOME's), with one
 *    change: `git clone` takes this checkout's committed HEAD instead of GitHub.
 * 2. Starts n8n from npm as the demo runs it (the provisioned runtime, scripts/lib/provision.ts) with that HOME as
 *    its user folder, so n8n loads the package the README's `npm install` put there; the sandbox stands in for the
 *    service.
 * 3. Does the Quick start's steps 2-7 through n8n's REST API, as the editor would: the credential and its Test, the
 *    example imported from the clone, the routine picked, the workflow activated, the form sent by its production
 *    URL, and the lead looked for in the service.
 * Not a jest test: it takes minutes (npm ci, a build, n8n's start). It prints each step and exits 1 on a failure.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { repoRoot } from '../../scripts/lib/provision';
import { runWalk, sayer, walkToFirstLead } from './walk-to-lead';

const say = sayer('readme-walk');
const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

/** The first shell block of the Quick start, as the README shows it. */
function quickStartCommands(): string {
	const section = readme.slice(readme.indexOf('## Quick start'));
	const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1];
	if (!block) throw new Error('README.md: no shell block in the Quick start');
	return block;
}

async function main() {
	const work = mkdtempSync(path.join(os.tmpdir(), 'readme-walk-'));
	const home = path.join(work, 'home');
	const commands = quickStartCommands().replace(
		/git clone https:\/\/github\.com\/n8n-nodes-prospecting\/n8n-nodes-prospecting\.git/,
		`git clone --quiet ${repoRoot} n8n-nodes-prospecting`,
	);
	say(`step 0, the README's commands in ${work} (HOME=${home}):\n${commands}`);
	execFileSync('bash', ['-euo', 'pipefail', '-c', `mkdir -p "$HOME" && cd "${work}"\n${commands}`], {
		env: { ...process.env, HOME: home, npm_config_cache: path.join(os.homedir(), '.npm') },
		stdio: ['ignore', 'inherit', 'inherit'],
	});
	const installed = readdirSync(path.join(home, '.n8n', 'nodes', 'node_modules'));
	say(`installed in ~/.n8n/nodes/node_modules: ${installed.join(', ')}`);
	if (!installed.includes('n8n-nodes-prospecting')) throw new Error('the package is not in ~/.n8n/nodes');

	say('step 1, n8n with that HOME as its user folder, so it loads the package the README\'s `npm install` put there');
	const example = path.join(work, 'n8n-nodes-prospecting', 'examples', 'lead-capture-form.json');
	await walkToFirstLead({ name: 'readme-walk', work, userFolder: home, example, person: 'Ana Walk' });
}

runWalk('readme-walk', main);
