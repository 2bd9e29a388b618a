/**
 * `npm run demo`: the package running in a real n8n against the sandbox, on loopback only.
 * scripts/demo.sh builds the package first; this script provisions n8n (first time only), installs the packed
 * package as a community package, starts the sandbox and n8n, prepares the owner, the credential and the example
 * workflows, prints how to use them, and on Ctrl-C stops everything it started.
 *
 * Options: --fresh (default) starts from an empty n8n user folder; --keep reuses the previous one.
 *          --port <n8n port> (default 5678 when free), --sandbox-port <port> (default 4010 when free).
 *          --queue runs n8n in queue mode instead (scripts/lib/queue-deployment.ts): PostgreSQL and Redis, the main
 *          process on --port, a webhook processor that receives the deliveries, and two workers; its database is
 *          fresh on every run.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';

import { startSandbox, type RunningSandbox } from '../sandbox';
import { demoLinks, demoPageLines } from './lib/demo-links';
import { AGENT_EXAMPLE_DIR, demoConversations, ensureScriptedModelCredential, withOpenAiCredential } from './lib/demo-agent';
import { importMcpExample } from './lib/demo-mcp';
import { startScriptedModel, type ScriptedModel } from './lib/scripted-model';
import { N8nClient } from './lib/n8n-client';
import { startN8n, type RunningN8n } from './lib/n8n-process';
import { installPackageTarball, packPackage } from './lib/package-install';
import { freePort, preferredOrFreePort } from './lib/ports';
import { ensureN8nRuntime, repoRoot } from './lib/provision';
import { startQueueDeployment, type RunningQueueDeployment } from './lib/queue-deployment';
import {
	CREDENTIAL_NAME,
	DEMO_OWNER,
	ensureCredential,
	ensureOwner,
	importWorkflows,
	readWorkflowFiles,
} from './lib/instance-setup';

const DEMO_ENCRYPTION_KEY = 'n8n-nodes-prospecting-demo-encryption-key';

function argValue(name: string): string | undefined {
	const index = process.argv.indexOf(name);
	return index >= 0 ? process.argv[index + 1] : undefined;
}

const say = (text: string) => process.stderr.write(`[demo] ${text}\n`);

async function main() {
	const queue = process.argv.includes('--queue');
	// In queue mode the database lives in PostgreSQL's temporary folder: nothing to keep.
	const keep = process.argv.includes('--keep') && !queue;
	const runtime = await ensureN8nRuntime();
	const demoRoot = path.join(runtime.cacheRoot, 'demo');
	const userFolder = path.join(demoRoot, queue ? 'queue-user' : 'user');
	if (!keep) rmSync(userFolder, { recursive: true, force: true });

	say('Packing the package and installing the tarball into the n8n user folder (.n8n/nodes)');
	const tarball = await packPackage(path.join(demoRoot, 'pack'));
	const installed = await installPackageTarball(userFolder, tarball);
	say(`Installed ${installed.name}@${installed.version} from ${path.relative(repoRoot, tarball) || tarball}`);

	let sandbox: RunningSandbox | undefined;
	let n8n: RunningN8n | undefined;
	let model: ScriptedModel | undefined;
	let deployment: RunningQueueDeployment | undefined;
	let stopping = false;
	const stopAll = async (code: number) => {
		if (stopping) return;
		stopping = true;
		say('Stopping n8n and the sandbox...');
		await n8n?.stop().catch(() => undefined);
		await deployment?.stop().catch(() => undefined);
		await sandbox?.stop().catch(() => undefined);
		await model?.stop().catch(() => undefined);
		say('Stopped. Nothing is left running.');
		process.exit(code);
	};
	process.on('SIGINT', () => void stopAll(0));
	process.on('SIGTERM', () => void stopAll(0));
	process.on('SIGHUP', () => void stopAll(0));

	try {
		const sandboxPort = Number(argValue('--sandbox-port') ?? (await preferredOrFreePort(4010)));
		sandbox = await startSandbox({ port: sandboxPort, host: '127.0.0.1' });
		say(`Sandbox listening on ${sandbox.url}`);

		const port = Number(argValue('--port') ?? (await preferredOrFreePort(5678)));
		let editorUrl: string;
		let webhookBase: string;
		if (queue) {
			say(`Starting n8n ${runtime.n8nVersion} in queue mode (about 40 s)`);
			deployment = await startQueueDeployment({
				runtime,
				userFolder,
				logDir: path.join(demoRoot, 'queue-logs'),
				encryptionKey: DEMO_ENCRYPTION_KEY,
				workers: 2,
				mainPort: port,
				pidDir: process.env.PROSPECTING_PID_DIR,
				say,
			});
			editorUrl = deployment.url;
			webhookBase = deployment.webhookUrl;
		} else {
			say(`Starting n8n ${runtime.n8nVersion} on http://127.0.0.1:${port} (about 15 s)`);
			n8n = await startN8n({
				runtime,
				userFolder,
				port,
				brokerPort: await freePort(),
				encryptionKey: DEMO_ENCRYPTION_KEY,
				logFile: path.join(demoRoot, 'n8n.log'),
				pidDir: process.env.PROSPECTING_PID_DIR,
			});
			editorUrl = n8n.url;
			webhookBase = n8n.url;
		}

		const client = new N8nClient(editorUrl, runtime.n8nPackageDir);
		await ensureOwner(client, DEMO_OWNER);
		const credential = await ensureCredential(client, { baseUrl: sandbox.url, apiKey: sandbox.apiKey });
		const test = await client.testCredential(credential);
		say(`Credential "${CREDENTIAL_NAME}" test: ${test.status}${test.status === 'OK' ? '' : ` (${test.message})`}`);

		const routines = sandbox.control.routines();
		const examples = readWorkflowFiles(path.join(repoRoot, 'examples'));
		const imported = await importWorkflows(
			client,
			examples,
			{ credential, routineId: routines[0]?.id },
			{ activate: () => true },
		);
		// The AI agent example, answered by a scripted model on loopback (no account, no network).
		model = await startScriptedModel();
		model.script(demoConversations());
		const openAi = await ensureScriptedModelCredential(client, model.url);
		const [agent] = await importWorkflows(
			client,
			readWorkflowFiles(path.join(repoRoot, AGENT_EXAMPLE_DIR)).map(({ file, workflow }) => ({
				file,
				workflow: withOpenAiCredential(workflow, openAi),
			})),
			{ credential },
			{ activate: () => true },
		);
		if (agent) imported.push(agent);
		// The MCP server example: the same tools for any MCP client (assistants, IDEs, other agents).
		const mcp = await importMcpExample(client, { credential }, webhookBase);
		imported.push(...mcp.imported);
		if (keep) {
			// Kept workflows were activated by n8n at start, before the credential pointed at this run's sandbox:
			// publish them again so the trigger registers its webhook with this sandbox.
			for (const { workflow, activated } of imported) {
				if (!activated) continue;
				await client.deactivateWorkflow(workflow.id);
				await client.activateWorkflow(workflow.id);
			}
		}

		const [toWin, toLose] = sandbox.control.prospections().filter((p) => p.status === 'IN_PROGRESS');
		const links = demoLinks({ editorUrl, webhookBase, workflows: imported.map((w) => w.workflow) });
		const lines = [
			'',
			'n8n-nodes-prospecting demo is running (loopback only; Ctrl-C stops everything)',
			'',
			...demoPageLines(links),
			`  login           ${DEMO_OWNER.email} / ${DEMO_OWNER.password}`,
			`  sandbox API     ${sandbox.url}/api/v1   (demo API key: in the "${CREDENTIAL_NAME}" credential)`,
			'',
			...(deployment
				? [
						`  queue mode      main ${deployment.url}, webhook processor ${deployment.webhookUrl} (production webhooks),`,
						`                  ${deployment.workers.length} workers run the executions; PostgreSQL on port ${deployment.services.postgres.port}, Redis on port ${deployment.services.redis.port}`,
						`  logs            ${path.dirname(deployment.logFiles.main)}`,
					]
				: []),
			'',
			'  Workflows (imported and active):',
			...imported.map((w) => `    - ${w.workflow.name}  ${editorUrl}/workflow/${w.workflow.id}`),
			'',
		];
		for (const { label, workflow, url, method } of links.filter((link) => link.kind === 'webhook')) {
			if (workflow?.id === agent?.workflow.id) {
				const ask = (prompt: string) =>
					`    curl -s -X POST ${url} -H 'content-type: application/json' -d '{"prompt":"${prompt}"}'`;
				lines.push(
					`  ${label} (model: scripted, ${model.url}):`,
					ask('How is the funnel?'),
					ask(`Add Ana Lima, ana.lima@example.com to routine ${routines[0]?.id ?? '<routine id>'}`),
				);
				continue;
			}
			lines.push(
				method === 'POST'
					? `  ${label}:\n    curl -s -X POST ${url} -H 'content-type: application/json' \\\n      -d '{"name":"Ana Souza","company":"Acme","email":"ana@example.com","phone":"+55 11 91234-5678"}'`
					: `  ${label}:\n    curl -s ${url}`,
			);
		}
		lines.push(...mcp.lines);
		const statusCurl = (id: string, status: string) =>
			`    curl -s -X POST ${sandbox!.url}/__sandbox/prospections/${id}/status -H 'content-type: application/json' -d '{"status":"${status}"}'`;
		if (toWin && toLose) {
			lines.push(
				'  Make a prospection WON (the trigger workflow runs; see Executions in n8n):',
				statusCurl(toWin.id, 'WON'),
				'  ...or another one LOST:',
				statusCurl(toLose.id, 'LOST'),
				`  Deliveries the sandbox made: curl -s ${sandbox.url}/__sandbox/deliveries`,
			);
		}
		lines.push('');
		process.stdout.write(`${lines.join('\n')}\n`);
		// Stay up until Ctrl-C.
		await new Promise<never>(() => undefined);
	} catch (error) {
		say(`Failed: ${(error as Error).message}`);
		await stopAll(1);
	}
}

void main();
