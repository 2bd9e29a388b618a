// Mutation testing of the write path (issue 42), run by hand: `npm run mutation`; not part of CI.
//   npm run mutation -- --mutate nodes/Prospecting/actions/lead/simplify.ts   one file (or a comma-separated list)
//   npm run mutation -- --incremental                                          only code changed since the last run
//   npm run mutation -- --mutate <files> --testFiles <suites>                  initial run limited to the suites that
//                                                                              cover those files (quicker, same verdicts)
// Default mutators. Reports land in reports/mutation/ (HTML, JSON, and mutants.jsonl as results come); the
// incremental record in reports/stryker-incremental.json. Both are git-ignored.
// Measured on 2 busy cores (2026-11-27): the write path has about 2,300 mutants (a quarter static); the initial run
// of the write-path suites takes 3.5 min; a killed mutant 2-5 s, a surviving one 15-20 s (every test covering it
// runs). The whole path takes hours: run it file by file, with --incremental.

/** The write path: every write's outcome, its record across n8n's retries, and the operations that write. */
const writePath = [
	'nodes/Prospecting/actions/lead/**/*.ts',
	'nodes/Prospecting/actions/routine/**/*.ts',
	'nodes/Prospecting/actions/webhook/**/*.ts',
	'nodes/Prospecting/actions/writeMemory.ts',
	'nodes/Prospecting/actions/checkBeforeSending.ts',
	'nodes/Prospecting/transport/serviceClock.ts',
	'nodes/Prospecting/trigger/lifecycle.ts',
	// Errors as users see them, and the outcome each carries.
	'nodes/Prospecting/helpers/nodeError.ts',
	'nodes/Prospecting/helpers/statusError.ts',
	'nodes/Prospecting/helpers/networkError.ts',
	'nodes/Prospecting/helpers/networkCode.ts',
	'nodes/Prospecting/helpers/unusableAnswerError.ts',
	'nodes/Prospecting/helpers/rateLimitError.ts',
	'nodes/Prospecting/helpers/outcome.ts',
	'nodes/Prospecting/helpers/errorMarks.ts',
	// What a write's 2xx must be, and which answers an error may quote.
	'nodes/Prospecting/helpers/writeAnswer.ts',
	'nodes/Prospecting/helpers/quotable.ts',
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	testRunner: 'jest',
	// The harness loads the nodes at run time, so jest cannot find a mutated file's tests itself: see scripts/mutation/.
	jest: { configFile: 'jest.mutation.config.js', enableFindRelatedTests: false },
	// Each mutant runs only the tests that executed its code in the initial run.
	coverageAnalysis: 'perTest',
	mutate: writePath,
	// Static mutants (code run while a module loads: parameter descriptions, constants) have no per-test coverage, so
	// each would run every suite (about 3 minutes); they are counted apart as "ignored". `MUTATION_STATIC=run` runs them.
	ignoreStatic: process.env.MUTATION_STATIC !== 'run',
	// Two cores shared with other work: one jest process by default (`--concurrency 2` on a quiet machine).
	concurrency: 1,
	// A jest process in band grows with every suite it loads; a fresh one every 20 mutants keeps it quick.
	maxTestRunnerReuse: 20,
	// Engine tests wait on loopback HTTP and on (scaled) rate-limit windows: a mutant gets 1.5 x its tests' time
	// plus 10 s before it counts as a timeout, which is reported apart from killed and survived mutants.
	timeoutMS: 10_000,
	timeoutFactor: 1.5,
	dryRunTimeoutMinutes: 15,
	incrementalFile: 'reports/stryker-incremental.json',
	// mutant-log (scripts/mutation/) writes each result as it comes: reports/mutation/mutants.jsonl.
	appendPlugins: ['./scripts/mutation/mutant-log-reporter.mjs'],
	reporters: ['clear-text', 'progress', 'html', 'json', 'mutant-log'],
	htmlReporter: { fileName: 'reports/mutation/index.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
	// Not copied into Stryker's sandbox: builds, n8n installs of the end-to-end suite, benchmark output.
	ignorePatterns: ['dist', 'coverage', 'reports', '.n8n-e2e*', 'bench/tmp', '*.tgz', '*.log'],
	tempDirName: '.stryker-tmp',
	thresholds: { high: 90, low: 85, break: null },
};
