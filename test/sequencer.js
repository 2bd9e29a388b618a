/**
 * Starts the longest suites first so that no worker is left with a long one at the end. Jest's own
 * order does this from the durations of earlier runs on this machine; on a first run (a fresh CI
 * checkout) it falls back to file size, which would start the release checks (small file, half a
 * minute of builds and scans in child processes) late. Here the suites jest has no duration for go
 * first, release checks ahead of the rest, then by size.
 */
const { default: Sequencer } = require('@jest/test-sequencer');

const isReleaseCheck = (test) => /[\\/]test[\\/]release[\\/]/.test(test.path);

class LongestFirstSequencer extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		const unknown = sorted.filter((test) => test.duration == null);
		if (unknown.length === 0) return sorted;
		const known = sorted.filter((test) => test.duration != null);
		return [...unknown.filter(isReleaseCheck), ...unknown.filter((test) => !isReleaseCheck(test)), ...known];
	}
}

module.exports = LongestFirstSequencer;
