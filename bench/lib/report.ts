/**
 * The table in BENCHMARKS.md: each figure with what it was measured against in the same run.
 * Only the part between the table markers is rewritten; the text around it is kept.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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
			const ok = !f.error && f.ratioToFloor <= 1.05 && f.requests.tooMany === 0 && f.records.gaps === 0 && f.records.duplicates === 0;
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

export function benchmarksTable(results: Json, section = 'table'): string {
	const { start: START, end: END } = marker(section);
	const rows = [...rateRows(results), ...overheadRow(results), ...triggerRows(results), ...realN8nRows(results)];
	const machine = results.machine as Json;
	const lines = [
		START,
		`Run of ${results.startedAt} (${results.mode}, ${results.totalSeconds} s): ${machine.cores} cores (${machine.cpuModel}), ` +
			`${machine.memoryGb} GB, Node ${machine.node}, ${machine.platform}. ` +
			(results.config.windowSeconds < 60 ? `Window shortened to ${results.config.windowSeconds} s with the ` : `The service's own ${results.config.windowSeconds} s window and the `) +
			`service's budgets (${results.config.readLimit} reads / ${results.config.writeLimit} writes per window). Raw numbers: ${results.outFile}.`,
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
