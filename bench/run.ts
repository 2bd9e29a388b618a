/**
 * `npm run bench [-- --quick] [-- --only=walk,bulk] [-- --skip-n8n]`
 *
 * Every figure runs against sandboxes on 127.0.0.1 (each in its own process) with a shortened rate
 * limit window and the service's budgets, and is reported next to what it is measured against in
 * the same run: the rate-limit floor built from per-request times measured with bare fetch loops,
 * or the bare loop itself. Writes bench/results/results.json (bench/tmp/results.quick.json for --quick) and the
 * table in BENCHMARKS.md. Loops are bounded; nothing leaves the machine.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';

import { parseArgs, wants, type BenchArgs } from './lib/args';
import { FULL, QUICK, type BenchConfig } from './lib/config';
import { round } from './lib/measure';
import { benchResultsFile } from './lib/figure-paths';
import { writeBenchmarksTable, writeSummaryTable } from './lib/report';
import { SandboxProcess, type SandboxProcessOptions } from '../dev/sandbox-client';
import { runBulkCreate } from './scenarios/bulk-create';
import { runOverhead } from './scenarios/overhead';
import { measureReadRequestTime, measureWriteRequestTime } from './scenarios/request-time';
import { runSharedKey } from './scenarios/shared-key';
import { runTriggerInProcess } from './scenarios/trigger-in-process';
import { runWalk } from './scenarios/walk';
import { runRealN8n } from './real-n8n/run-real-n8n';

export type ResetFormat = 'epoch-seconds' | 'epoch-ms' | 'delta-seconds';

/** Reset formats every rate-limited figure is measured under: the sandbox default and the precise one. */
const RESET_FORMATS: ResetFormat[] = (process.env.BENCH_RESET_FORMATS?.split(',') as ResetFormat[] | undefined) ?? ['epoch-seconds', 'epoch-ms'];

const log = (text: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

function smallDataset(leads: number) {
	return { leads, routines: 5, prospections: 20, activitiesPerProspection: 2, customFields: 3, threads: 5 };
}

function sandboxOptions(config: BenchConfig, leads: number, resetFormat: ResetFormat, args: BenchArgs): SandboxProcessOptions {
	return {
		rateHeaders: args.rateHeaders,
		clockWindows: args.clockWindows,
		windowSeconds: config.windowSeconds,
		readLimit: config.readLimit,
		writeLimit: config.writeLimit,
		rateLimitResetFormat: resetFormat,
		dataset: smallDataset(leads),
	};
}

async function withSandbox<T>(options: SandboxProcessOptions, work: (sandbox: SandboxProcess) => Promise<T>): Promise<T> {
	const sandbox = await SandboxProcess.start(options);
	try {
		return await work(sandbox);
	} finally {
		await sandbox.stop();
	}
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	// --real-window: the walk and the bulk create only, at the service's own window length.
	const config: BenchConfig = args.realWindow
		? { ...(args.quick ? QUICK : FULL), windowSeconds: FULL.realWindowSeconds }
		: args.quick
			? QUICK
			: FULL;
	if (args.realWindow) {
		args.only = new Set(['walk', 'bulk']);
		args.skipN8n = true;
	}
	const resetFormats: ResetFormat[] = args.realWindow ? ['epoch-seconds'] : RESET_FORMATS;
	const startedAt = new Date();
	const results: Record<string, unknown> = {
		startedAt: startedAt.toISOString(),
		mode: args.realWindow ? `${config.mode}, the service's real window` : config.mode,
		machine: {
			cores: cpus().length,
			cpuModel: cpus()[0]?.model,
			memoryGb: round(totalmem() / 2 ** 30, 1),
			node: process.version,
			platform: `${process.platform} ${process.arch}`,
		},
		config,
		sandbox: { rateHeaders: args.rateHeaders, clockWindows: args.clockWindows },
		// 1-, 5- and 15-minute load averages; per figure, the 1-minute one before and after it.
		loadAverage: { atStart: loadavg().map((value) => round(value, 2)) } as Record<string, number[]>,
		figures: {} as Record<string, unknown>,
		notRun: [] as Array<{ figure: string; reason: string }>,
	};
	const figures = results.figures as Record<string, unknown>;
	const notRun = results.notRun as Array<{ figure: string; reason: string }>;

	const runFigure = async (name: string, work: () => Promise<unknown>) => {
		log(`${name}: start`);
		// Other work on this 2-core machine shows up in every figure; the load average is kept with it.
		const loadBefore = round(loadavg()[0], 2);
		try {
			const figure = await work();
			figures[name] =
				figure && typeof figure === 'object' ? { ...figure, loadAverage: { before: loadBefore, after: round(loadavg()[0], 2) } } : figure;
			log(`${name}: done ${JSON.stringify(summaryOf(figures[name]))}`);
		} catch (error) {
			const reason = (error as Error).stack ?? String(error);
			log(`${name}: FAILED ${reason}`);
			notRun.push({ figure: name, reason: (error as Error).message });
		}
	};

	// Rate-limited figures, once per reset-header format, each against its own sandbox process.
	if (wants(args, 'walk') || wants(args, 'bulk') || wants(args, 'shared')) {
		for (const resetFormat of resetFormats) {
			await withSandbox(sandboxOptions(config, config.walkLeads, resetFormat, args), async (sandbox) => {
				log(`sandbox (${config.walkLeads} leads, X-RateLimit-Reset ${resetFormat}) at ${sandbox.url}`);
				const expectedIds = await sandbox.call<string[]>('leadIds');
				if (wants(args, 'walk') || wants(args, 'shared')) {
					const reads = await measureReadRequestTime(sandbox, config);
					figures[`readRequestTime:${resetFormat}`] = { ...reads, perRequestMs: round(reads.perRequestMs, 3) };
					log(`read request time ${reads.perRequestMs.toFixed(3)} ms (${reads.pages} pages, ${reads.records} records)`);
					if (wants(args, 'walk')) {
						await runFigure(`walk:${resetFormat}`, () => runWalk(sandbox, config, reads.perRequestMs, expectedIds, args.clockWindows));
					}
					if (wants(args, 'shared')) {
						await runFigure(`shared:${resetFormat}`, () => runSharedKey(sandbox, config, reads.perRequestMs, expectedIds));
					}
				}
				if (wants(args, 'bulk')) {
					const writes = await measureWriteRequestTime(sandbox, config);
					figures[`writeRequestTime:${resetFormat}`] = { ...writes, perRequestMs: round(writes.perRequestMs, 3) };
					log(`write request time ${writes.perRequestMs.toFixed(3)} ms`);
					await runFigure(`bulk:${resetFormat}`, () => runBulkCreate(sandbox, config, writes.perRequestMs));
				}
			});
		}
	}

	if (wants(args, 'overhead')) {
		await withSandbox(sandboxOptions(config, config.overheadLeads, 'epoch-seconds', args), async (sandbox) => {
			await runFigure('overhead', () => runOverhead(sandbox, config));
		});
	}

	if (wants(args, 'trigger')) {
		await runFigure('trigger', () => runTriggerInProcess(config));
	}

	if (wants(args, 'alternative') || wants(args, 'n8n-trigger')) {
		await runFigure('realN8n', () =>
			runRealN8n(config, {
				alternative: wants(args, 'alternative'),
				trigger: wants(args, 'n8n-trigger'),
				log,
				smallDataset,
			}),
		);
	} else if (args.skipN8n && !args.realWindow) {
		notRun.push({ figure: 'realN8n', reason: 'left out with --skip-n8n' });
	}

	(results.loadAverage as Record<string, number[]>).atEnd = loadavg().map((value) => round(value, 2));
	results.finishedAt = new Date().toISOString();
	results.totalSeconds = round((Date.now() - startedAt.getTime()) / 1000, 1);
	// Quick and partial runs go to bench/tmp/ (not kept in git); only a full run replaces bench/results/results.json.
	const partial = !args.realWindow && !args.quick && (args.only.size > 0 || args.skipN8n);
	const outFile = args.out && partial
		? args.out
		: args.realWindow
		? benchResultsFile(`real-window${args.quick ? '.quick' : ''}`, { kept: !args.quick })
		: benchResultsFile(args.quick ? 'quick' : partial ? 'partial' : '', { kept: !args.quick && !partial });
	results.outFile = path.relative(path.join(__dirname, '..'), outFile);
	mkdirSync(path.dirname(outFile), { recursive: true });
	writeFileSync(outFile, `${JSON.stringify(results, null, '\t')}\n`);
	log(`wrote ${path.relative(process.cwd(), outFile)} (${results.totalSeconds} s)`);
	// A full run refreshes only the summary, so BENCHMARKS.md keeps its length; the detailed table on request.
	if (!args.quick && !partial) {
		writeSummaryTable();
		log('wrote the summary in BENCHMARKS.md');
	}
	if (args.writeMarkdown) {
		writeBenchmarksTable(results, args.realWindow ? 'real-window' : 'table');
		log('wrote the detailed table in BENCHMARKS.md');
	}
}

/** A one-line view of a figure for the progress log. */
function summaryOf(figure: unknown): unknown {
	if (!figure || typeof figure !== 'object') return figure;
	const f = figure as Record<string, unknown>;
	const pick: Record<string, unknown> = {};
	for (const key of ['wallMs', 'ratioToFloor', 'wallRatio', 'cpuRatio', 'deliveriesPerSecond', 'error']) {
		if (key in f) pick[key] = f[key];
	}
	if (f.requests && typeof f.requests === 'object') pick.tooMany = (f.requests as { tooMany: number }).tooMany;
	return pick;
}

main().then(
	() => process.exit(0),
	(error) => {
		log(`failed: ${(error as Error).stack ?? error}`);
		process.exit(1);
	},
);
