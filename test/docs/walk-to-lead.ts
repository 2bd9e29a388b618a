/**
 * The end the README walk and the Docker walk share, once the package is where n8n looks for it: the sandbox stands
 * in for the service, n8n starts from npm (as the demo runs it) with the walk's user folder, and the Quick start's
 * steps 2-7 go through n8n's REST API as the editor would: the credential and its Test, the form example imported,
 * the routine picked, the workflow activated, the form sent by its production URL, the lead looked for in its routine.
 * Both servers stop at the end, and the walk's folder goes unless KEEP_WALK=true.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import { startSandbox } from '../../sandbox';
import { bindWorkflow, ensureCredential, ensureOwner, formUrl } from '../../scripts/lib/instance-setup';
import { N8nClient, type WorkflowJson } from '../../scripts/lib/n8n-client';
import { startN8n } from '../../scripts/lib/n8n-process';
import { freePort } from '../../scripts/lib/ports';
import { ensureN8nRuntime } from '../../scripts/lib/provision';

export type Say = (text: string) => void;

/** A walk's step lines, prefixed with its name. */
export const sayer = (name: string): Say => (text) => process.stdout.write(`[${name}] ${text}\n`);

/** Runs a walk as a script: a failure prints its stack and exits 1. */
export function runWalk(name: string, walk: () => Promise<void>): void {
	walk().catch((error: unknown) => {
		process.stderr.write(`[${name}] FAILED: ${error instanceof Error ? error.stack : String(error)}\n`);
		process.exit(1);
	});
}

export async function walkToFirstLead(walk: { name: string; work: string; userFolder: string; env?: Record<string, string>; example: string; person: string }): Promise<void> {
	const say = sayer(walk.name);
	const sandbox = await startSandbox({ port: await freePort(), host: '127.0.0.1' });
	const runtime = await ensureN8nRuntime();
	say(`n8n ${runtime.n8nVersion} from npm, user folder ${walk.userFolder}${walk.env ? ', with the environment given' : ''}`);
	const n8n = await startN8n({
		runtime,
		userFolder: walk.userFolder,
		port: await freePort(),
		brokerPort: await freePort(),
		encryptionKey: walk.name,
		logFile: path.join(walk.work, 'n8n.log'),
		env: walk.env,
	});
	try {
		const client = new N8nClient(n8n.url, runtime.n8nPackageDir);
		await ensureOwner(client);
		const types = (await client.nodeTypes()).map((type) => type.name);
		say(`n8n loaded: ${types.filter((name) => name.startsWith('n8n-nodes-prospecting.')).join(', ')}`);

		say('Quick start step 2, the credential: Base URL and API Key, then Test');
		const credential = await ensureCredential(client, { baseUrl: sandbox.url, apiKey: sandbox.apiKey });
		const test = await client.testCredential(credential);
		say(`Test: ${test.status} ${test.message}`);
		if (test.status !== 'OK') throw new Error('the credential test failed');

		say(`Quick start steps 3-4, the example imported (${walk.example}), the credential chosen, the routine picked`);
		const example = JSON.parse(readFileSync(walk.example, 'utf8')) as WorkflowJson;
		const routine = sandbox.control.routines()[0];
		const stored = await client.createWorkflow(bindWorkflow(example, { credential, routineId: routine.id }));

		say('Quick start step 5, activate (Publish on n8n 2.x)');
		await client.activateWorkflow(stored.id, stored.versionId, { wait: true });

		const url = formUrl(n8n.url, example, 'Lead form');
		const email = `${walk.person.toLowerCase().replace(/ /g, '.')}.${Date.now()}@example.com`;
		say(`Quick start step 6, the form sent to its production URL ${url}`);
		const form = new FormData();
		for (const [index, value] of [walk.person, `${walk.person.split(' ')[1]} Ltda`, email, '', JSON.stringify(['I agree to be contacted about this request'])].entries()) {
			form.append(`field-${index}`, value);
		}
		const answer = await fetch(url, { method: 'POST', body: form });
		say(`the form answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);

		say('Quick start step 7, the lead in the service, in the routine');
		await client.waitForExecutions(stored.id, 1, 60_000);
		const deadline = Date.now() + 60_000;
		const leadOf = () => sandbox.control.leads().find((candidate) => candidate.emails.some((item) => item.value === email));
		for (let lead = leadOf(); ; lead = leadOf()) {
			if (lead?.routineIds.includes(routine.id)) {
				say(`walked: lead ${lead.id} "${lead.name}" (${lead.company}), origin '${lead.origin}', in routine ${routine.id}`);
				return;
			}
			if (Date.now() >= deadline) throw new Error(lead ? `the lead is not in routine ${routine.id}` : `no lead for ${email} in the service`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	} finally {
		await n8n.stop();
		await sandbox.stop();
		if (process.env.KEEP_WALK !== 'true') rmSync(walk.work, { recursive: true, force: true });
	}
}
