/**
 * The alternative: n8n's HTTP Request node on the same walk and the same bulk create as our node.
 * Each case runs against a freshly reset sandbox (fresh windows) and is reported with its outcome,
 * the records it delivered downstream, the leads it created, the 429s it drew and its time.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import type { N8nClient, StoredWorkflow, WorkflowJson } from '../../scripts/lib/n8n-client';
import { bulkInputItems } from '../scenarios/bulk-create';
import type { BenchConfig } from '../lib/config';
import { postJson } from '../lib/http-post';
import { round } from '../lib/measure';
import { checkCreates, type CreateCheck } from '../lib/records';
import type { RequestSummary, SandboxProcess } from '../../dev/sandbox-client';
import {
	httpRequestBulkWorkflow,
	httpRequestWalkWorkflow,
	RETRY_AT_MAXIMUM,
	type CredentialRef,
	type HttpRequestVariant,
} from './workflows';

export interface AlternativeResult {
	label: string;
	work: 'walk' | 'bulk';
	windowSeconds: number;
	variant: HttpRequestVariant;
	outcome: 'succeeded' | 'failed';
	httpStatus: number;
	wallMs: number;
	/** Records (walk) or created leads (bulk) the HTTP Request node passed downstream. */
	delivered: number;
	deliveredUnique: number;
	error?: string;
	requests: RequestSummary;
	/** How many times the node started the work over (page 1 read, or item 0 created). */
	starts: number;
	leads?: CreateCheck;
	summary: string;
	against: string;
}

interface Context {
	config: BenchConfig;
	client: N8nClient;
	n8nUrl: string;
	sandbox: SandboxProcess;
	log: (text: string) => void;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function prepare(ctx: Context, workflow: WorkflowJson): Promise<StoredWorkflow> {
	const stored = await ctx.client.createWorkflow(workflow);
	await ctx.client.activateWorkflow(stored.id, stored.versionId);
	// Kept for a reader who wants to import exactly what ran.
	const dir = path.join(__dirname, '..', 'workflows');
	mkdirSync(dir, { recursive: true });
	const portable = JSON.parse(JSON.stringify(workflow).replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:4010')) as WorkflowJson;
	for (const node of portable.nodes) if (node.credentials) node.credentials = { httpQueryAuth: { id: '', name: 'Prospecting API key (Query Auth)' } };
	writeFileSync(path.join(dir, `${workflow.nodes[0].parameters?.path as string}.json`), `${JSON.stringify(portable, null, '\t')}\n`);
	return stored;
}

async function lastExecutionError(ctx: Context, workflowId: string): Promise<string | undefined> {
	const executions = await ctx.client.waitForExecutions(workflowId, 1, 30_000);
	const newest = executions.sort((a, b) => Number(b.id) - Number(a.id))[0];
	if (!newest || newest.status === 'success') return undefined;
	const detail = await ctx.client.getExecution(newest.id);
	const { runData, error } = detail.data.resultData;
	const nodeError = runData['HTTP Request']?.at(-1)?.error;
	const message = nodeError?.message ?? error?.message ?? newest.status;
	return String(message).slice(0, 300);
}

async function runCase(
	ctx: Context,
	work: 'walk' | 'bulk',
	label: string,
	windowSeconds: number,
	variant: HttpRequestVariant,
	credential: CredentialRef,
	against: string,
): Promise<AlternativeResult> {
	const { config, sandbox } = ctx;
	const slug = `bench-${work}-${windowSeconds}s-${variant.pageIntervalMs || variant.batchIntervalMs ? 'spaced' : 'retry'}`;
	const tag = `Bench http ${windowSeconds}s ${variant.batchIntervalMs ? 'spaced' : 'retry'}`;
	const workflow =
		work === 'walk'
			? httpRequestWalkWorkflow({ name: label, path: slug, sandboxUrl: sandbox.url, pageSize: config.pageSize, credential, variant })
			: httpRequestBulkWorkflow({ name: label, path: slug, sandboxUrl: sandbox.url, credential, variant });
	const stored = await prepare(ctx, workflow);

	await sandbox.reset();
	await sandbox.setRateLimit({ enabled: true, windowSeconds, readLimit: config.readLimit, writeLimit: config.writeLimit });
	const from = await sandbox.requestCount();
	ctx.log(`alternative: ${label}`);
	const response = await postJson(`${ctx.n8nUrl}/webhook/${slug}`, work === 'bulk' ? { items: bulkInputItems(tag, config.bulkItems) } : {});
	const requests = await sandbox.requestSummary(from);
	let delivered = 0;
	let deliveredUnique = 0;
	if (response.status === 200) {
		try {
			const body = JSON.parse(response.body) as { count_id?: number; unique_count_id?: number };
			delivered = body.count_id ?? 0;
			deliveredUnique = body.unique_count_id ?? 0;
		} catch {
			// An answer that is not the Count node's item delivered nothing countable.
		}
	}
	const error = response.status === 200 ? undefined : await lastExecutionError(ctx, stored.id);
	const starts =
		work === 'walk'
			? await sandbox.call<number>('countRequests', from, { method: 'GET', path: '/api/v1/leads', query: { page: '1' } })
			: 0;
	const leads =
		work === 'bulk' ? checkCreates(await sandbox.call<Record<string, number>>('leadNameCounts', tag), tag, config.bulkItems) : undefined;
	const outcome = response.status === 200 ? 'succeeded' : 'failed';
	const expected = work === 'walk' ? config.walkLeads : config.bulkItems;
	const summary =
		`${outcome} in ${seconds(response.wallMs)}; delivered ${delivered.toLocaleString('en-US')} of ${expected.toLocaleString('en-US')} ${work === 'walk' ? 'records' : 'created leads'}; ` +
		`${requests.tooMany} × 429 of ${requests.total} requests` +
		(work === 'walk' ? `; page 1 requested ${starts} time${starts === 1 ? '' : 's'}` : '') +
		(leads
			? `; sandbox holds ${leads.created} new leads (${leads.itemsCreatedOnce} items once, ${leads.itemsCreatedTwiceOrMore} twice or more, ${leads.itemsMissing} never)`
			: '') +
		(error ? `; error: ${error}` : '');
	await ctx.client.deactivateWorkflow(stored.id).catch(() => undefined);
	return {
		label,
		work,
		windowSeconds,
		variant,
		outcome,
		httpStatus: response.status,
		wallMs: round(response.wallMs, 1),
		delivered,
		deliveredUnique,
		error,
		requests,
		starts,
		leads,
		summary,
		against,
	};
}

export async function runHttpRequestAlternative(ctx: Context): Promise<AlternativeResult[]> {
	const { config, client, sandbox } = ctx;
	const stored = await client.createCredential('Prospecting API key (Query Auth)', 'httpQueryAuth', {
		name: 'apiKey',
		value: sandbox.apiKey,
	});
	const credential = { id: stored.id, name: stored.name };
	const retryOnly: HttpRequestVariant = { retry: RETRY_AT_MAXIMUM, pageIntervalMs: 0, batchIntervalMs: 0 };
	// Spacing a user could set by hand: one call per (window / budget), so no window is ever overrun.
	const spaced: HttpRequestVariant = {
		retry: RETRY_AT_MAXIMUM,
		pageIntervalMs: Math.ceil((config.windowSeconds * 1000) / config.readLimit),
		batchIntervalMs: Math.ceil((config.windowSeconds * 1000) / config.writeLimit),
	};
	const w = config.windowSeconds;
	const real = config.realWindowSeconds;
	const walkLabel = `${config.walkLeads.toLocaleString('en-US')}-lead walk`;
	const bulkLabel = `${config.bulkItems}-item bulk create`;
	const cases: Array<[AlternativeResult['work'], string, number, HttpRequestVariant, string]> = [
		['walk', `HTTP Request node, ${walkLabel}, pagination + Retry On Fail 5 × 5 s, ${w} s window`, w, retryOnly, `our node's walk, ${w} s window (rows above)`],
		['bulk', `HTTP Request node, ${bulkLabel}, Retry On Fail 5 × 5 s, ${w} s window`, w, retryOnly, `our node's bulk create, ${w} s window (rows above)`],
		['walk', `HTTP Request node, ${walkLabel}, pagination + Retry On Fail 5 × 5 s, the service's real ${real} s window`, real, retryOnly, `our node: waits out the window (the 5 s-window rows above scale to ${real} s windows)`],
		['bulk', `HTTP Request node, ${bulkLabel}, Retry On Fail 5 × 5 s, the service's real ${real} s window`, real, retryOnly, `our node: waits out the window (the 5 s-window rows above scale to ${real} s windows)`],
		['walk', `HTTP Request node, ${walkLabel}, hand-tuned: ${spaced.pageIntervalMs} ms between pages, ${w} s window`, w, spaced, `our node's walk and its floor, ${w} s window (rows above)`],
		['bulk', `HTTP Request node, ${bulkLabel}, hand-tuned: batches of 1 item ${spaced.batchIntervalMs} ms apart, ${w} s window`, w, spaced, `our node's bulk create and its floor, ${w} s window (rows above)`],
	];
	const results: AlternativeResult[] = [];
	for (const [work, label, windowSeconds, variant, against] of cases) {
		try {
			results.push(await runCase(ctx, work, label, windowSeconds, variant, credential, against));
			ctx.log(`  → ${results.at(-1)!.summary}`);
		} catch (error) {
			ctx.log(`  → could not run: ${(error as Error).message}`);
			results.push({
				label,
				work,
				windowSeconds,
				variant,
				outcome: 'failed',
				httpStatus: 0,
				wallMs: NaN,
				delivered: 0,
				deliveredUnique: 0,
				error: `not measured: ${(error as Error).message.slice(0, 300)}`,
				requests: { total: 0, byStatus: {}, byKind: {}, tooMany: 0, firstAt: null, lastAt: null },
				starts: 0,
				summary: `not measured: ${(error as Error).message.slice(0, 300)}`,
				against,
			});
		}
	}
	return results;
}
