/**
 * The version a tarball carries says what it is: built from `main`, a prerelease of the version after the last
 * release in CHANGELOG.md, holding what "Unreleased" lists; on a release commit, that release. The user's guide
 * names that version wherever it names a prerelease.
 */
import { read, userDocs } from './docs-support';

type Triple = [number, number, number];
const triple = (version: string): Triple => version.split('-')[0].split('.').map(Number) as Triple;
const after = (a: Triple, b: Triple): boolean => a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] > b[2];

/** Why `version` does not say what a tarball of this CHANGELOG is, or undefined when it does. */
export function versionProblem(version: string, changelog: string): string | undefined {
	const released = /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/m.exec(changelog)?.[1];
	if (!released) return 'CHANGELOG.md names no release';
	const start = changelog.indexOf('## [Unreleased]');
	const unreleased = start < 0 ? '' : changelog.slice(start, changelog.indexOf('\n## [', start + 1));
	const pending = /^- /m.test(unreleased);
	const prerelease = /^\d+\.\d+\.\d+-[\w.]+$/.test(version);
	if (pending && !prerelease) return `${version} is not a prerelease, but CHANGELOG.md lists unreleased changes`;
	if (pending && !after(triple(version), triple(released))) return `${version} is not a prerelease of a version after ${released}`;
	if (!pending && version !== released) return `${version} is not ${released}, the last release, with nothing unreleased`;
	return undefined;
}

const { version } = JSON.parse(read('package.json')) as { version: string };
const changelog = read('CHANGELOG.md');

describe("the package's version", () => {
	it("says what a tarball is: a prerelease of the next version while CHANGELOG lists unreleased changes, else the last release", () => {
		expect(versionProblem(version, changelog)).toBeUndefined();
	});

	it('is refused when it is a release name on main, or a prerelease of a version already released', () => {
		const log = '## [Unreleased]\n\n- A change.\n\n## [1.1.0] - 2026-11-25\n\n- Released.\n';
		expect(versionProblem('1.1.0', log)).toBe('1.1.0 is not a prerelease, but CHANGELOG.md lists unreleased changes');
		expect(versionProblem('1.1.0-dev', log)).toBe('1.1.0-dev is not a prerelease of a version after 1.1.0');
		expect(versionProblem('1.2.0-dev', log)).toBeUndefined();
		expect(versionProblem('1.2.0', log.replace('- A change.\n', ''))).toBe('1.2.0 is not 1.1.0, the last release, with nothing unreleased');
	});

	it("is the one the user's guide names wherever it names a prerelease", () => {
		const named = userDocs.flatMap((doc) => [...read(doc).matchAll(/\b\d+\.\d+\.\d+-dev\b/g)].map((match) => `${doc}: ${match[0]}`));
		expect(named.length).toBeGreaterThan(0);
		expect(named.filter((mention) => !mention.endsWith(`: ${version}`))).toEqual([]);
	});
});
