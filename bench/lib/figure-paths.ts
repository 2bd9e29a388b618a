/**
 * Where the benchmarks keep their figures: bench/results/results[.<name>].json for the runs kept in git (full runs,
 * read back by BENCHMARKS.md's tables), bench/tmp/ for quick and partial runs (not kept). Every reader and writer
 * takes its path from here.
 */
import path from 'node:path';

const BENCH_DIR = path.join(__dirname, '..');
export const RESULTS_DIR = path.join(BENCH_DIR, 'results');
export const SCRATCH_DIR = path.join(BENCH_DIR, 'tmp');

/** `name` '' is the in-process run (`npm run bench`); others: 'real-window', 'queue-mode', 'n8n-trigger', ... */
export function benchResultsFile(name: string, options: { kept?: boolean } = {}): string {
	return path.join(options.kept === false ? SCRATCH_DIR : RESULTS_DIR, `results${name ? `.${name}` : ''}.json`);
}
