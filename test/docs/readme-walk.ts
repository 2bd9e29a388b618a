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
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startSandbox } from '../../sandbox';
import { bindWorkflow, ensureCredential, ensureOwner, formUrl } from '../../scripts/lib/instance-setup';
import { N8nClient, type WorkflowJson } from '../../scripts/lib/n8n-client';
import { startN8n } from '../../scripts/lib/n8n-process';
import { freePort } from '../../scripts/lib/ports';
import { ensureN8nRuntime, repoRoot } from '../../scripts/lib/provision';

const say = (text: string) => process.stdout.write(`[readme-walk] ${text}\n`);
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

	const sandbox = await startSandbox({ port: await freePort(), host: '127.0.0.1' });
	const runtime = await ensureN8nRuntime();
	say(`step 1, n8n ${runtime.n8nVersion} from npm (as the demo runs it), user folder ${home}`);
	const n8n = await startN8n({
		runtime,
		userFolder: home,
		port: await freePort(),
		brokerPort: await freePort(),
		encryptionKey: 'readme-walk',
		logFile: path.join(work, 'n8n.log'),
	});
	try {
		const client = new N8nClient(n8n.url, runtime.n8nPackageDir);
		await ensureOwner(client);
		const types = (await client.nodeTypes()).map((type) => type.name);
		say(`n8n loaded: ${types.filter((name) => name.startsWith('n8n-nodes-prospecting.')).join(', ')}`);

		say('step 2, the credential: Base URL and API Key, then Test');
		const credential = await ensureCredential(client, { baseUrl: sandbox.url, apiKey: sandbox.apiKey });
		const test = await client.testCredential(credential);
		say(`Test: ${test.status} ${test.message}`);
		if (test.status !== 'OK') throw new Error('the credential test failed');

		say('step 3-4, the example imported from the clone, the credential chosen, the routine picked');
		const file = path.join(work, 'n8n-nodes-prospecting', 'examples', 'lead-capture-form.json');
		const example = JSON.parse(readFileSync(file, 'utf8')) as WorkflowJson;
		const routine = sandbox.control.routines()[0];
		const stored = await client.createWorkflow(bindWorkflow(example, { credential, routineId: routine.id }));

		say('step 5, activate (Publish on n8n 2.x)');
		await client.activateWorkflow(stored.id, stored.versionId, { wait: true });

		const url = formUrl(n8n.url, example, 'Lead form');
		const email = `ana.walk.${Date.now()}@example.com`;
		say(`step 6, the form sent to its production URL ${url}`);
		const form = new FormData();
		form.append('field-0', 'Ana Walk');
		form.append('field-1', 'Walk Ltda');
		form.append('field-2', email);
		form.append('field-3', '');
		form.append('field-4', JSON.stringify(['I agree to be contacted about this request']));
		const answer = await fetch(url, { method: 'POST', body: form });
		say(`the form answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);

		say('step 7, the lead in the service, in the routine');
		await client.waitForExecutions(stored.id, 1, 60_000);
		const deadline = Date.now() + 60_000;
		let lead = sandbox.control.leads().find((candidate) => candidate.emails.some((item) => item.value === email));
		while ((!lead || !lead.routineIds.includes(routine.id)) && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 500));
			lead = sandbox.control.leads().find((candidate) => candidate.emails.some((item) => item.value === email));
		}
		if (!lead) throw new Error(`no lead for ${email} in the service`);
		say(`lead ${lead.id} "${lead.name}" (${lead.company}), origin '${lead.origin}', routines ${lead.routineIds.join(', ')}`);
		if (!lead.routineIds.includes(routine.id)) throw new Error(`the lead is not in routine ${routine.id}`);
		say('walked: a first lead from the form, in the routine');
	} finally {
		await n8n.stop();
		await sandbox.stop();
		if (process.env.KEEP_WALK !== 'true') rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`[readme-walk] FAILED: ${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});
