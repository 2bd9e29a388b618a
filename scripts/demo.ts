/**
 * `npm run demo`: the package running in a real n8n against the sandbox, on loopback only.
 * scripts/demo.sh builds the package first; this script starts the sandbox, then n8n with the packed package
 * installed (scripts/lib/bootstrap.ts: provisions n8n the first time), prepares the credential and the example
 * workflows, prints how to use them, and on Ctrl-C stops everything it started.
 *
 * Options: --fresh (default) starts from an empty n8n user folder; --keep reuses the previous one.
 *          --port <n8n port> (default 5678 when free), --sandbox-port <port> (default 4010 when free).
 *          --queue runs n8n in queue mode instead (scripts/lib/queue-deployment.ts): PostgreSQL and Redis, the main
 *          process on --port, a webhook processor that receives the deliveries, and two workers; its database is
 *          fresh on every run.
 */
import path from 'node:path';

import { startSandbox, type RunningSandbox } from '../sandbox';
import { bootstrapN8n, type N8nInstance } from './lib/bootstrap';
import { demoLinks, demoPageLines } from './lib/demo-links';
import {
	AGENT_EXAMPLE_DIR,
	AGENT_HEADER_NAME,
	demoConversations,
	ensureAgentHeaderCredential,
	ensureScriptedModelCredential,
	newAgentKey,
	withAgentHeaderCredential,
	withOpenAiCredential,
} from './lib/demo-agent';
import { importMcpExample } from './lib/demo-mcp';
import { stopOnInterrupt } from './lib/interrupt';
import { startScriptedModel, type ScriptedModel } from './lib/scripted-model';
import { preferredOrFreePort } from './lib/ports';
import { ensureN8nRuntime, repoRoot } from './lib/provision';
import {
	CREDENTIAL_NAME,
	DEMO_OWNER,
	ensureCredential,
	importWorkflows,
	readWorkflowFiles,
} from './lib/instance-setup';

/** Production executions n8n runs at once; the rest of a spike queues in its database (about 11 MB each in flight). */
const PRODUCTION_CONCURRENCY = 20;
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
	const runDir = path.join((await ensureN8nRuntime()).cacheRoot, 'demo', queue ? 'queue' : 'single');

	let sandbox: RunningSandbox | undefined;
	let n8n: N8nInstance | undefined;
	let model: ScriptedModel | undefined;
	const stopAll = async () => {
		say('Stopping n8n and the sandbox...');
		await n8n?.stop().catch(() => undefined);
		await sandbox?.stop().catch(() => undefined);
		await model?.stop().catch(() => undefined);
		say('Stopped. Nothing is left running.');
	};
	stopOnInterrupt(stopAll, 0);

	try {
		const sandboxPort = Number(argValue('--sandbox-port') ?? (await preferredOrFreePort(4010)));
		sandbox = await startSandbox({ port: sandboxPort, host: '127.0.0.1' });
		say(`Sandbox listening on ${sandbox.url}`);

		n8n = await bootstrapN8n({
			runDir,
			keep,
			queue: queue ? { workers: 2 } : undefined,
			port: Number(argValue('--port') ?? (await preferredOrFreePort(5678))),
			encryptionKey: DEMO_ENCRYPTION_KEY,
			// A campaign's spike of form posts waits in n8n's database instead of in memory (docs/rate-limits.md, Spikes).
			env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(PRODUCTION_CONCURRENCY) },
			say,
		});
		const { client, queue: deployment } = n8n;
		const editorUrl = n8n.url;
		const webhookBase = n8n.webhookUrl;
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
		// A new key on every start: the credential is updated, so a workflow kept from an earlier run uses it too.
		const agentKey = newAgentKey();
		const agentHeader = await ensureAgentHeaderCredential(client, agentKey);
		const [agent] = await importWorkflows(
			client,
			readWorkflowFiles(path.join(repoRoot, AGENT_EXAMPLE_DIR)).map(({ file, workflow }) => ({
				file,
				workflow: withAgentHeaderCredential(withOpenAiCredential(workflow, openAi), agentHeader),
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
					`    curl -s -X POST ${url} -H '${AGENT_HEADER_NAME}: ${agentKey}' -H 'content-type: application/json' -d '{"prompt":"${prompt}"}'`;
				lines.push(
					`  ${label} (model: scripted, ${model.url}; without the ${AGENT_HEADER_NAME} header n8n answers 403):`,
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
		await stopAll();
		process.exit(1);
	}
}

void main();
