import path from 'node:path';

/** Command-line options of `npm run bench -- [options]`. */
export interface BenchArgs {
	quick: boolean;
	/** Figures to run (walk, bulk, shared, overhead, trigger, alternative, n8n-trigger); all when empty. */
	only: Set<string>;
	/** Leave real n8n out (the alternative and the n8n webhook load). */
	skipN8n: boolean;
	/** Write BENCHMARKS.md even on a quick run. */
	writeMarkdown: boolean;
	/** Walk and bulk create at the service's real 60 s window (X-RateLimit-Reset in epoch seconds), about 7 minutes. */
	realWindow: boolean;
	/** A quick run leaves real n8n out unless this is given. */
	withN8n: boolean;
	/** Where the sandbox sends X-RateLimit-*: every answer, or 429 answers only (as the spec documents them). */
	rateHeaders: 'always' | 'on-429';
	/** The sandbox's windows aligned to the clock, so a figure begins part-way through one. */
	clockWindows: boolean;
	/** Where a partial run is kept; bench/tmp/ when absent. */
	out?: string;
}

export const ALL_FIGURES = ['walk', 'bulk', 'shared', 'overhead', 'trigger', 'alternative', 'n8n-trigger'] as const;

export function parseArgs(argv: string[]): BenchArgs {
	const args: BenchArgs = {
		quick: false,
		only: new Set(),
		skipN8n: false,
		writeMarkdown: false,
		realWindow: false,
		withN8n: false,
		rateHeaders: 'always',
		clockWindows: false,
	};
	for (const arg of argv) {
		if (arg === '--quick') args.quick = true;
		else if (arg === '--skip-n8n' || arg === '--no-n8n') args.skipN8n = true;
		else if (arg === '--write-md') args.writeMarkdown = true;
		else if (arg === '--real-window') args.realWindow = true;
		else if (arg === '--with-n8n') args.withN8n = true;
		else if (arg === '--clock-windows') args.clockWindows = true;
		else if (arg.startsWith('--rate-headers=')) {
			const mode = arg.slice('--rate-headers='.length);
			if (mode !== 'always' && mode !== 'on-429') throw new Error('--rate-headers takes always or on-429');
			args.rateHeaders = mode;
		} else if (arg.startsWith('--out=')) args.out = path.resolve(arg.slice('--out='.length));
		else if (arg.startsWith('--only=')) {
			for (const name of arg.slice('--only='.length).split(',')) {
				if (!(ALL_FIGURES as readonly string[]).includes(name)) {
					throw new Error(`unknown figure "${name}"; known: ${ALL_FIGURES.join(', ')}`);
				}
				args.only.add(name);
			}
		} else if (arg === '--help' || arg === '-h') {
			process.stdout.write(
				[
					'npm run bench -- [--quick] [--only=walk,bulk,...] [--skip-n8n] [--write-md]',
					`  figures: ${ALL_FIGURES.join(', ')}`,
					'  --quick     smaller sizes and a 2 s window, no real n8n (about 1-2 minutes); writes bench/tmp/results.quick.json',
					'  --with-n8n  include the real-n8n figures in a quick run',
					'  --skip-n8n  leave out the figures that need real n8n',
					'  --write-md  also write the detailed table into BENCHMARKS.md (a full run refreshes only its summary)',
					'  --rate-headers=on-429  the sandbox sends X-RateLimit-* on 429 answers only (default: always, every answer)',
					'  --clock-windows        the sandbox\'s windows aligned to the clock (default: opened by the first call)',
					'  --out=file  where a partial run is written (default bench/tmp/results.partial.json)',
					"  --real-window  only the walk and the bulk create, at the service's real 60 s window (about 7 minutes);",
					'              writes bench/results/results.real-window.json (its table in BENCHMARKS.md with --write-md)',
					'',
				].join('\n'),
			);
			process.exit(0);
		} else throw new Error(`unknown option ${arg}`);
	}
	if (args.quick && !args.withN8n) args.skipN8n = true;
	return args;
}

export function wants(args: BenchArgs, figure: (typeof ALL_FIGURES)[number]): boolean {
	if (args.skipN8n && (figure === 'alternative' || figure === 'n8n-trigger')) return false;
	return args.only.size === 0 || args.only.has(figure);
}
