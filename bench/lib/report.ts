/**
 * The table in BENCHMARKS.md: each figure with what it was measured against in the same run.
 * Only the part between the table markers is rewritten; the text around it is kept.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { benchResultsFile } from './figure-paths';

const marker = (name: string) => ({ start: `<!-- bench:${name}:start -->`, end: `<!-- bench:${name}:end -->` });

type Json = Record<string, any>;

const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : 'n/a');
const ms = (value: number, digits = 2) => (Number.isFinite(value) ? `${value.toFixed(digits)} ms` : 'n/a');
const x = (ratio: number) => (Number.isFinite(ratio) ? `${ratio.toFixed(3)} ×` : 'n/a');
const n = (value: number) => (Number.isFinite(value) ? value.toLocaleString('en-US') : 'n/a');
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

interface Row {
	figure: string;
	result: string;
	against: string;
	target: string;
	met: string;
}

function floorText(floor: Json, requests: number, limit: number, windowSeconds: number, perRequestMs: number, kind: string): string {
	return (
		`floor ${s(floor.floorMs)} = ${floor.windowsThatMustPass} windows × ${windowSeconds} s + ${n(requests)} ${kind} × ` +
		`${ms(perRequestMs, 3)} (fastest of the bare fetch loops over the same work, limiter off, same run); budget ${limit} per window; ` +
		`strict floor ${s(floor.strictFloorMs)}`
	);
}

function verdict(ok: boolean | undefined): string {
	if (ok === undefined) return 'n/a';
	return ok ? 'yes' : '**no**';
}

function formatLabel(format: string): string {
	return format === 'epoch-ms' ? 'X-RateLimit-Reset in epoch ms' : 'X-RateLimit-Reset in epoch s (sandbox default)';
}

function rateRows(results: Json): Row[] {
	const rows: Row[] = [];
	const { config } = results;
	const figures = results.figures as Json;
	for (const key of Object.keys(figures)) {
		const [name, format] = key.split(':');
		const f = figures[key];
		if (name === 'walk') {
			const perRequest = figures[`readRequestTime:${format}`]?.perRequestMs;
			const ok =
				!f.error && f.ratioToFloor <= 1.05 && f.requests.tooMany === 0 && f.records.gaps === 0 && f.records.duplicates === 0 && f.records.unknown === 0;
			rows.push({
				figure: `Walk: Return All, ${n(config.walkLeads)} leads at ${config.pageSize}/page, alone (${formatLabel(format)})`,
				result: f.error
					? `failed: ${f.error}`
					: `${s(f.wallMs)} = **${x(f.ratioToFloor)} floor** (${x(f.ratioToStrictFloor)} strict); ${f.requests.tooMany} × 429; ` +
						`${n(f.records.returned)} records, ${f.records.duplicates} duplicates, ${f.records.gaps} gaps; ${n(f.requests.total)} requests`,
				against: floorText(f.floor, f.pagesExpected, config.readLimit, config.windowSeconds, perRequest, 'reads'),
				target: '≤ 1.05 × floor, 0 × 429',
				met: verdict(ok),
			});
		}
		if (name === 'bulk') {
			const perRequest = figures[`writeRequestTime:${format}`]?.perRequestMs;
			const ok = !f.error && f.ratioToFloor <= 1.05 && f.requests.tooMany === 0 && f.leads.itemsCreatedOnce === f.leads.items;
			rows.push({
				figure: `Bulk create: ${n(config.bulkItems)} input items → leads, alone (${formatLabel(format)})`,
				result: f.error
					? `failed: ${f.error}`
					: `${s(f.wallMs)} = **${x(f.ratioToFloor)} floor** (${x(f.ratioToStrictFloor)} strict); ${f.requests.tooMany} × 429; ` +
						`${n(f.leads.created)} leads created (${f.leads.itemsCreatedOnce} items once, ${f.leads.itemsCreatedTwiceOrMore} twice or more, ${f.leads.itemsMissing} missing)`,
				against: floorText(f.floor, config.bulkItems, config.writeLimit, config.windowSeconds, perRequest, 'writes'),
				target: '≤ 1.05 × floor, 0 × 429',
				met: verdict(ok),
			});
		}
		if (name === 'shared') {
			const perRequest = figures[`readRequestTime:${format}`]?.perRequestMs;
			const executions = f.executions as Json[];
			const both = executions.every((e) => e.completed && e.records.gaps === 0 && e.records.duplicates === 0);
			rows.push({
				figure: `Shared key: two executions walking ${n(config.walkLeads)} leads at once, same key (${formatLabel(format)})`,
				result:
					`${executions.filter((e) => e.completed).length}/2 completed in ${s(f.wallMs)} = ${x(f.ratioToFloor)} floor of both walks; ` +
					`${f.requests.tooMany} × 429; records ${executions.map((e) => `${n(e.records.returned)} (${e.records.duplicates} dup, ${e.records.gaps} gaps)`).join(' and ')}`,
				against: floorText(f.floor, 2 * Math.ceil(config.walkLeads / config.pageSize), config.readLimit, config.windowSeconds, perRequest, 'reads'),
				target: 'both complete, no record lost',
				met: verdict(both),
			});
		}
	}
	return rows;
}

function overheadRow(results: Json): Row[] {
	const f = results.figures.overhead;
	if (!f) return [];
	return [
		{
			figure: `Overhead: Return All, ${n(f.leads)} leads (${f.pages} pages), rate limit off`,
			result: f.error
				? `failed: ${f.error}`
				: `node ${s(f.node.wallMs)} wall, ${s(f.node.cpuMs)} CPU → **wall ${x(f.wallRatio)}, CPU ${x(f.cpuRatio)}** the bare loop. ` +
					`Split: a minimal n8n node doing only n8n-core's request helper calls is ${x(f.minimalWallRatio)} wall / ${x(f.minimalCpuRatio)} CPU the bare loop; ` +
					`our node is ${x(f.nodeToMinimalWallRatio)} wall / ${x(f.nodeToMinimalCpuRatio)} CPU that minimal node`,
			against: `bare fetch loop over the same pages: ${s(f.bare.wallMs)} wall, ${s(f.bare.cpuMs)} CPU; minimal n8n node ${s(f.minimal.wallMs)} wall, ${s(f.minimal.cpuMs)} CPU (medians of ${f.repeats} alternating runs; CPU of the benchmark process only, the sandbox runs in its own process)`,
			target: '≤ 1.3 × bare loop',
			met: verdict(f.error ? false : f.wallRatio <= 1.3 && f.cpuRatio <= 1.3),
		},
	];
}

function triggerRows(results: Json): Row[] {
	const f = results.figures.trigger;
	if (!f) return [];
	return [
		{
			figure: 'Trigger: signed deliveries through webhook() in process',
			result: f.error
				? `failed: ${f.error}`
				: `**${n(Math.round(f.deliveriesPerSecond))} verified deliveries/s** (${n(f.verified)} of ${n(f.deliveries)} verified and emitted; ${f.rejectedForged} of ${f.forged} forged rejected); p99 ${ms(f.p99Ms, 3)} per call`,
			against: `HMAC-SHA256 of the same bodies alone: ${n(Math.round(f.hmacPerSecond))}/s (the floor of any verifying receiver)`,
			target: 'report',
			met: 'n/a',
		},
	];
}

function realN8nRows(results: Json): Row[] {
	const real = results.figures.realN8n as Json | undefined;
	if (!real) return [];
	const rows: Row[] = [];
	const ours = (work: string) => {
		const f = results.figures[`${work}:epoch-seconds`];
		if (!f || f.error) return '';
		return work === 'walk'
			? ` (this run: ${s(f.wallMs)}, ${n(f.records.unique)} of ${n(f.records.returned + f.records.gaps - f.records.duplicates)} records, ${f.requests.tooMany} × 429)`
			: ` (this run: ${s(f.wallMs)}, ${f.leads.itemsCreatedOnce} of ${f.leads.items} items created once, ${f.requests.tooMany} × 429)`;
	};
	for (const alt of (real.alternative ?? []) as Json[]) {
		rows.push({
			figure: `Alternative: ${alt.label}`,
			result: alt.summary,
			against: `${alt.against}${ours(alt.work)}`,
			target: 'our node on the same work (rows above)',
			met: 'n/a',
		});
	}
	const load = real.trigger as Json | undefined;
	if (load) {
		rows.push({
			figure: `Trigger in real n8n ${real.n8nVersion ?? ''}: webhook endpoint under load (autocannon, ${load.connections} connections, ${load.seconds} s)`,
			result: load.error
				? `failed: ${load.error}`
				: `**${n(Math.round(load.requestsPerSecond))} verified deliveries/s**, p99 ${ms(load.p99Ms, 0)}, p50 ${ms(load.p50Ms, 0)}; ${n(load.status2xx)} × 2xx, ${n(load.non2xx)} other, ${n(load.errors)} errors; ${n(load.executions ?? NaN)} executions recorded`,
			against: load.against ?? 'in-process webhook() rate above',
			target: 'report',
			met: 'n/a',
		});
	}
	return rows;
}

/** The machine's load during the run: 1-minute load averages at the start, around each figure, at the end. */
function loadText(results: Json): string {
	const perFigure = Object.values((results.figures ?? {}) as Json)
		.flatMap((f: Json) => (f && f.loadAverage ? [f.loadAverage.before, f.loadAverage.after] : []))
		.filter((value: unknown): value is number => typeof value === 'number');
	const run = results.loadAverage as Json | undefined;
	const parts: string[] = [];
	if (run?.atStart) parts.push(`${run.atStart[0].toFixed(2)} at the start`);
	if (perFigure.length) parts.push(`${Math.min(...perFigure).toFixed(2)}-${Math.max(...perFigure).toFixed(2)} around the figures`);
	if (run?.atEnd) parts.push(`${run.atEnd[0].toFixed(2)} at the end`);
	return parts.length ? ` 1-minute load average ${parts.join(', ')} (2 cores; each figure's own is in the raw numbers).` : '';
}

export function benchmarksTable(results: Json, section = 'table'): string {
	const { start: START, end: END } = marker(section);
	const rows = [...rateRows(results), ...overheadRow(results), ...triggerRows(results), ...realN8nRows(results)];
	const machine = results.machine as Json;
	const lines = [
		START,
		`Run of ${results.startedAt} (${results.mode}, ${results.totalSeconds} s): ${machine.cores} cores (${machine.cpuModel}), ` +
			`${machine.memoryGb} GB, Node ${machine.node}, ${machine.platform}. ` +
			(results.config.windowSeconds < 60 ? `Window shortened to ${results.config.windowSeconds} s with the ` : `The service's own ${results.config.windowSeconds} s window and the `) +
			`service's budgets (${results.config.readLimit} reads / ${results.config.writeLimit} writes per window). Raw numbers: ${results.outFile}.` +
			loadText(results),
		'',
		'| Figure | Result | Measured against (same run) | Target | Met |',
		'|---|---|---|---|---|',
		...rows.map((r) => `| ${cell(r.figure)} | ${cell(r.result)} | ${cell(r.against)} | ${cell(r.target)} | ${cell(r.met)} |`),
	];
	const notRun = [
		...((results.notRun ?? []) as Array<{ figure: string; reason: string }>),
		...((results.figures.realN8n?.notRun ?? []) as Array<{ figure: string; reason: string }>),
	];
	if (notRun.length) {
		lines.push('', 'Not run in this run:', ...notRun.map((item) => `- ${item.figure}: ${cell(item.reason)}`));
	}
	lines.push(END);
	return lines.join('\n');
}

export function writeBenchmarksTable(
	results: Json,
	section = 'table',
	file = path.join(__dirname, '..', '..', 'BENCHMARKS.md'),
): void {
	const { start: START, end: END } = marker(section);
	const table = benchmarksTable(results, section);
	const current = existsSync(file) ? readFileSync(file, 'utf8') : `# Benchmarks\n\n${START}\n${END}\n`;
	const start = current.indexOf(START);
	const end = current.indexOf(END);
	const next =
		start >= 0 && end > start
			? `${current.slice(0, start)}${table}${current.slice(end + END.length)}`
			: `${current.trimEnd()}\n\n${table}\n`;
	writeFileSync(file, next);
}

/** Short cells for the summary: the headline figure, what it is compared with, target, verdict. */
function summaryRows(full: Json | undefined, real: Json | undefined): Row[] {
	const rows: Row[] = [];
	const load = (f: Json) => (f?.loadAverage ? `; load ${f.loadAverage.before.toFixed(1)}→${f.loadAverage.after.toFixed(1)}` : '');
	const rated = (results: Json | undefined, windowLabel: string, formats: string[]) => {
		if (!results) return;
		const figures = results.figures as Json;
		for (const format of formats) {
			const fmt = format === 'epoch-ms' ? 'reset in ms' : 'reset in s';
			const walk = figures[`walk:${format}`];
			if (walk) {
				const ok = !walk.error && walk.ratioToFloor <= 1.05 && walk.requests.tooMany === 0 && walk.records.gaps === 0 && walk.records.duplicates === 0;
				rows.push({
					figure: `Walk 60,000 leads, ${windowLabel}, ${fmt}`,
					result: walk.error
						? `failed: ${walk.error}`
						: `${s(walk.wallMs)} = **${x(walk.ratioToFloor)}**; ${walk.requests.tooMany} × 429; ${n(walk.records.unique)} records, ${walk.records.duplicates} dup, ${walk.records.gaps} gaps`,
					against: `floor ${s(walk.floor.floorMs)}${load(walk)}`,
					target: '≤ 1.05 ×, 0 × 429',
					met: verdict(ok),
				});
			}
			const bulk = figures[`bulk:${format}`];
			if (bulk) {
				const ok = !bulk.error && bulk.ratioToFloor <= 1.05 && bulk.requests.tooMany === 0 && bulk.leads.itemsCreatedOnce === bulk.leads.items;
				rows.push({
					figure: `Bulk create 500 leads, ${windowLabel}, ${fmt}`,
					result: bulk.error
						? `failed: ${bulk.error}`
						: `${s(bulk.wallMs)} = **${x(bulk.ratioToFloor)}**; ${bulk.requests.tooMany} × 429; ${bulk.leads.itemsCreatedOnce} of ${bulk.leads.items} created once`,
					against: `floor ${s(bulk.floor.floorMs)}${load(bulk)}`,
					target: '≤ 1.05 ×, 0 × 429',
					met: verdict(ok),
				});
			}
			const shared = figures[`shared:${format}`];
			if (shared) {
				const executions = shared.executions as Json[];
				const ok = executions.every((e) => e.completed && e.records.gaps === 0 && e.records.duplicates === 0);
				rows.push({
					figure: `Shared key: 2 walks at once, ${windowLabel}, ${fmt}`,
					result: `${executions.filter((e) => e.completed).length}/2 complete, ${s(shared.wallMs)} = **${x(shared.ratioToFloor)}**; ${shared.requests.tooMany} × 429; ${executions.map((e) => `${e.records.duplicates} dup / ${e.records.gaps} gaps`).join(', ')}`,
					against: `floor of both walks ${s(shared.floor.floorMs)}${load(shared)}`,
					target: 'both complete, no record lost',
					met: verdict(ok),
				});
			}
		}
	};
	if (full) rated(full, `${full.config.windowSeconds} s window`, ['epoch-seconds', 'epoch-ms']);
	if (real) rated(real, `real ${real.config.windowSeconds} s window`, ['epoch-seconds']);
	// Walks together, then bulk creates, then the shared key.
	const order = (r: Row) => ['Walk', 'Bulk', 'Shared'].findIndex((prefix) => r.figure.startsWith(prefix));
	rows.sort((a, b) => order(a) - order(b));
	const overhead = full?.figures.overhead;
	if (overhead && !overhead.error) {
		rows.push({
			figure: `Overhead: Return All ${n(overhead.leads)} leads, limit off`,
			result: `**wall ${x(overhead.wallRatio)}, CPU ${x(overhead.cpuRatio)}** (n8n-core's helper alone: ${x(overhead.minimalWallRatio)} / ${x(overhead.minimalCpuRatio)})`,
			against: `bare fetch loop ${s(overhead.bare.wallMs)} wall${load(overhead)}`,
			target: '≤ 1.3 ×',
			met: verdict(overhead.wallRatio <= 1.3 && overhead.cpuRatio <= 1.3),
		});
	}
	const trigger = full?.figures.trigger;
	if (trigger && !trigger.error) {
		rows.push({
			figure: 'Trigger: webhook() in process',
			result: `**${n(Math.round(trigger.deliveriesPerSecond))} deliveries/s**, p99 ${ms(trigger.p99Ms, 3)}; ${trigger.rejectedForged}/${trigger.forged} forged refused`,
			against: `HMAC alone ${n(Math.round(trigger.hmacPerSecond))}/s`,
			target: 'report',
			met: 'n/a',
		});
	}
	const realN8n = full?.figures.realN8n as Json | undefined;
	const load8n = realN8n?.trigger;
	if (load8n && !load8n.error) {
		const base = load8n.baseline as Json | undefined;
		rows.push({
			figure: `Trigger in real n8n ${realN8n?.n8nVersion ?? ''}, ${load8n.connections} connections`,
			result: `**${load8n.requestsPerSecond} deliveries/s**, p99 ${ms(load8n.p99Ms, 0)}`,
			against: base ? `n8n's Webhook node: ${base.requestsPerSecond} req/s, p99 ${ms(base.p99Ms, 0)}` : 'n/a',
			target: 'report',
			met: 'n/a',
		});
	}
	for (const alt of (realN8n?.alternative ?? []) as Json[]) {
		// Our node on the same work at the same window, with the same (sandbox default) reset format.
		const sameWindow = [full, real].find((r) => r?.config.windowSeconds === alt.windowSeconds);
		const ours = sameWindow?.figures[`${alt.work}:epoch-seconds`];
		const where = sameWindow === full ? 'our node, same run' : 'our node, real-window run';
		const oursText = !ours
			? 'n/a'
			: alt.work === 'walk'
				? `${where}: ${n(ours.records.unique)} records, 0 lost, ${s(ours.wallMs)}`.replace(', 0 lost', ours.records.gaps ? `, ${ours.records.gaps} lost` : ', none lost')
				: `${where}: ${ours.leads.itemsCreatedOnce} of ${ours.leads.items} created once, ${s(ours.wallMs)}`;
		const variant = alt.variant?.pageIntervalMs || alt.variant?.batchIntervalMs ? 'hand-tuned spacing' : 'Retry On Fail at maximum';
		const outcome =
			alt.work === 'walk'
				? `${alt.outcome}, ${n(alt.delivered)} of ${n(full!.config.walkLeads)} records, ${alt.requests.tooMany} × 429, ${seconds(alt.wallMs)}`
				: `${alt.outcome}, ${alt.leads ? `${alt.leads.itemsCreatedOnce} created once, ${alt.leads.itemsCreatedTwiceOrMore} twice or more, ${alt.leads.itemsMissing} never` : 'n/a'}, ${seconds(alt.wallMs)}`;
		rows.push({
			figure: `HTTP Request node, ${alt.work === 'walk' ? 'walk' : 'bulk create'}, ${variant}, ${alt.windowSeconds} s window`,
			result: outcome,
			against: oursText,
			target: 'our node on the same work',
			met: 'n/a',
		});
	}
	return rows;
}

const seconds = (value: number) => (Number.isFinite(value) ? `${(value / 1000).toFixed(1)} s` : 'n/a');

/** The summary at the top of BENCHMARKS.md, from the kept results files (full run and real-window run). */
export function writeSummaryTable(file = path.join(__dirname, '..', '..', 'BENCHMARKS.md')): void {
	const read = (name: string) => {
		const p = benchResultsFile(name);
		return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as Json) : undefined;
	};
	const full = read('');
	const real = read('real-window');
	const { start: START, end: END } = marker('summary');
	const runs = [full, real]
		.filter((r): r is Json => r !== undefined)
		.map((r) => `${r.startedAt.slice(0, 16).replace('T', ' ')} UTC (${r.mode}, load ${loadText(r).replace(/^ 1-minute load average /, '').replace(/ \(2 cores.*$/, '')})`);
	const table = [
		START,
		`Runs: ${runs.join('; ')}. Ratios are wall time ÷ floor of the same run; details in the tables further down.`,
		'',
		'| Figure | Measured | Compared with (same run unless said) | Target | Met |',
		'|---|---|---|---|---|',
		...summaryRows(full, real).map((r) => `| ${cell(r.figure)} | ${cell(r.result)} | ${cell(r.against)} | ${cell(r.target)} | ${cell(r.met)} |`),
		END,
	].join('\n');
	const current = readFileSync(file, 'utf8');
	const start = current.indexOf(START);
	const end = current.indexOf(END);
	if (start < 0 || end < start) throw new Error(`BENCHMARKS.md has no ${START} … ${END} markers`);
	writeFileSync(file, `${current.slice(0, start)}${table}${current.slice(end + END.length)}`);
}
