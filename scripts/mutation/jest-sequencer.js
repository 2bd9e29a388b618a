/**
 * The test order of the mutation run (jest.mutation.config.js). In a mutant's run, Stryker asks jest for the tests
 * that covered the mutant (by name) among all suites; this sequencer keeps only the suites those tests are in
 * (coverage-map.js), so jest does not load every suite to find none. Mutants the map does not know (no map, no
 * file), and static ones when they are run (`MUTATION_STATIC=run`), run every suite as Stryker means them to. The quickest suites
 * go first: the first failing test ends the run (jest-environment.js), so a killed mutant costs least that way.
 */
const LongestFirstSequencer = require('../../test/sequencer');
const { activeMutant, readMap } = require('./coverage-map');
const { FAILED } = require('./jest-environment');

class MutationSequencer extends LongestFirstSequencer {
	sort(tests) {
		globalThis[FAILED] = false;
		const mutant = activeMutant();
		const sorted = super.sort(tests);
		if (mutant === undefined || sorted.length === 0) return sorted;
		const map = readMap(sorted[0].context.config.rootDir);
		if (!map) return sorted;
		const files = new Set(Object.entries(map.files).flatMap(([file, mutants]) => (mutants.includes(mutant) ? [file] : [])));
		const everySuite = files.size === 0 || (process.env.MUTATION_STATIC === 'run' && map.static.includes(mutant));
		const took = (test) => map.durations[test.path] ?? Infinity;
		return (everySuite ? sorted : sorted.filter((test) => files.has(test.path))).sort((a, b) => took(a) - took(b));
	}
}

module.exports = MutationSequencer;
