/**
 * The test environment of the mutation run (jest.mutation.config.js): jest's node environment, which Stryker wraps
 * with its own to see which tests run which mutants. This layer
 * - in Stryker's initial run, writes down which mutants each test file's tests covered (coverage-map.js);
 * - in a mutant's run, skips describe blocks with none of the tests Stryker asked for, so their beforeAll (a
 *   sandbox, a workflow) does not run, and stops at the first failing test: one failure kills the mutant, and
 *   jest's own bail cannot be used from Stryker.
 * Outside Stryker (a plain `jest -c jest.mutation.config.js`) it behaves as the node environment.
 */
const { TestEnvironment } = require('jest-environment-node');

const { activeMutant, recordFile } = require('./coverage-map');

const FAILED = Symbol.for('n8n-nodes-prospecting.mutation.failed');

/** Stryker's test id: the describe names and the test name, space-separated. */
function fullName(test) {
	const names = [];
	for (let block = test.parent; block?.parent; block = block.parent) names.unshift(block.name);
	return [...names, test.name].join(' ');
}

/** Marks every describe block none of whose tests is asked for as skipped; true when the block has one. */
function skipUnasked(block, pattern) {
	let asked = false;
	for (const child of block.children) {
		const childAsked = child.type === 'test' ? pattern.test(fullName(child)) : skipUnasked(child, pattern);
		asked ||= childAsked;
	}
	if (!asked) block.mode = 'skip';
	return asked;
}

function skipAll(block) {
	block.mode = 'skip';
	for (const child of block.children) {
		if (child.type === 'test') child.mode = 'skip';
		else skipAll(child);
	}
}

class MutationTestEnvironment extends TestEnvironment {
	#testPath;
	#rootDir;
	#testIds = new Set();
	#startedAt = Date.now();

	constructor(config, context) {
		super(config, context);
		this.#testPath = context.testPath;
		this.#rootDir = config.projectConfig.rootDir;
	}

	async handleTestEvent(event, state) {
		if (activeMutant() === undefined) {
			if (event.name === 'test_start') this.#testIds.add(fullName(event.test));
			return;
		}
		if (event.name === 'run_start') {
			if (globalThis[FAILED]) skipAll(state.rootDescribeBlock);
			else if (state.testNamePattern) skipUnasked(state.rootDescribeBlock, state.testNamePattern);
		} else if (event.name === 'test_fn_failure' || event.name === 'hook_failure') {
			globalThis[FAILED] = true;
		} else if (event.name === 'test_start' && globalThis[FAILED]) {
			event.test.mode = 'skip';
		}
	}

	async teardown() {
		const coverage = this.global.__stryker__?.mutantCoverage;
		if (activeMutant() === undefined && coverage) {
			const mutants = [...this.#testIds].flatMap((id) => Object.keys(coverage.perTest[id] ?? {}));
			recordFile(this.#rootDir, this.#testPath, Date.now() - this.#startedAt, mutants, Object.keys(coverage.static ?? {}));
		}
		await super.teardown();
	}
}

MutationTestEnvironment.FAILED = FAILED;

module.exports = MutationTestEnvironment;
