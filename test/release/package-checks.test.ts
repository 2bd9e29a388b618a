/**
 * The release checks `npm run lint`, `.ci/run` and the release workflow rely on, run as those do (the scripts
 * as child processes) on a built copy of this package in a temporary folder: n8n's verification scanner on the
 * source and on the packed tarball, the tarball's exact file list, the workflows, and the tag/version match.
 * Each violation is injected into a fresh copy, never into the working tree.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..');
const script = (name: string) => path.join(repoRoot, 'scripts', 'release', name);
const COPIED = [
	'package.json',
	'README.md',
	'LICENSE.md',
	'CHANGELOG.md',
	'index.js',
	'tsconfig.json',
	'tsconfig.build.json',
	'gulpfile.js',
	'nodes',
	'credentials',
	'.github',
	'.ci',
];

const tempDirs: string[] = [];
let built: string;

function linkNodeModules(dir: string) {
	fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
}

function tempDir(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-checks-'));
	tempDirs.push(dir);
	return dir;
}

/** A copy of the built package, to change one thing in. */
function copyOfBuilt(): string {
	const dir = tempDir();
	fs.cpSync(built, dir, { recursive: true, filter: (source) => path.basename(source) !== 'node_modules' });
	linkNodeModules(dir);
	return dir;
}

function run(name: string, args: string[]): { status: number | null; output: string } {
	const result = spawnSync(process.execPath, [script(name), ...args], { encoding: 'utf8', timeout: 120_000 });
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function edit(file: string, change: (text: string) => string) {
	fs.writeFileSync(file, change(fs.readFileSync(file, 'utf8')));
}

function editJson(file: string, change: (json: Record<string, unknown>) => void) {
	const json = JSON.parse(fs.readFileSync(file, 'utf8'));
	change(json);
	fs.writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
}

beforeAll(() => {
	built = tempDir();
	for (const entry of COPIED) fs.cpSync(path.join(repoRoot, entry), path.join(built, entry), { recursive: true });
	linkNodeModules(built);
	const bin = (relative: string) => path.join(repoRoot, 'node_modules', relative);
	execFileSync(process.execPath, [bin('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: built });
	execFileSync(process.execPath, [bin('gulp/bin/gulp.js'), 'build:icons'], { cwd: built, stdio: 'ignore' });
}, 180_000);

afterAll(() => {
	for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("n8n's verification scanner (npm run lint:scan)", () => {
	test('passes this package on the source and on the packed tarball', () => {
		const { status, output } = run('scan-package.mjs', ['--source', built]);
		expect(output).toMatch(/✅ n8n scanner, source: \d+ files .*: no finding/);
		expect(output).toMatch(/✅ n8n scanner, packed tarball: \d+ files .*: no finding/);
		expect(status).toBe(0);
	}, 120_000);

	test('fails on a built file that reads the environment, naming the file, the line and the rule', () => {
		const dir = copyOfBuilt();
		edit(path.join(dir, 'dist/nodes/Prospecting/transport/request.js'), (text) => {
			return `${text}\nexports.home = process.env.HOME;\n`;
		});
		const { status, output } = run('scan-package.mjs', ['--source', dir]);
		expect(status).toBe(1);
		expect(output).toMatch(/✅ n8n scanner, source: .*no finding/);
		expect(output).toMatch(/❌ n8n scanner, packed tarball: .*ESLint violations found/);
		expect(output).toMatch(/dist\/nodes\/Prospecting\/transport\/request\.js\n\s+\d+:\d+\s+error\s+.*process/);
		expect(output).toContain('@n8n/community-nodes/no-restricted-globals');
	}, 120_000);

	test('fails on source that calls setTimeout, even before it is built', () => {
		const dir = copyOfBuilt();
		edit(path.join(dir, 'nodes/Prospecting/transport/pause.ts'), (text) => {
			return `${text}\nexport const later = (done: () => void) => setTimeout(done, 10);\n`;
		});
		const { status, output } = run('scan-package.mjs', ['--source', dir]);
		expect(status).toBe(1);
		expect(output).toMatch(/❌ n8n scanner, source: .*ESLint violations found/);
		expect(output).toMatch(/nodes\/Prospecting\/transport\/pause\.ts\n\s+\d+:\d+\s+error\s+.*setTimeout/);
		expect(output).toMatch(/✅ n8n scanner, packed tarball: .*no finding/);
	}, 120_000);

	test('fails both legs on a runtime dependency in package.json', () => {
		const dir = copyOfBuilt();
		editJson(path.join(dir, 'package.json'), (pkg) => {
			pkg.dependencies = { 'left-pad': '1.3.0' };
		});
		const { status, output } = run('scan-package.mjs', ['--source', dir]);
		expect(status).toBe(1);
		expect(output).toMatch(/❌ n8n scanner, source: /);
		expect(output).toMatch(/❌ n8n scanner, packed tarball: /);
		expect(output.match(/@n8n\/community-nodes\/no-runtime-dependencies/g)).toHaveLength(2);
	}, 120_000);
});

describe('packed tarball file list (npm run check:tarball)', () => {
	test('holds exactly the files n8n loads and the documents', () => {
		const { status, output } = run('check-tarball.mjs', ['--dir', built]);
		expect(output).toMatch(/✅ Packed tarball: exactly the \d+ expected files \(\d+ JavaScript, 4 icons, \d+ codex, 4 documents\)/);
		expect(status).toBe(0);
	}, 60_000);

	test('names unexpected files with the reason and missing files', () => {
		const dir = copyOfBuilt();
		const transport = path.join(dir, 'dist/nodes/Prospecting/transport');
		fs.writeFileSync(path.join(transport, 'request.js.map'), '{}');
		fs.writeFileSync(path.join(transport, 'request.test.js'), '');
		fs.writeFileSync(path.join(transport, 'request.ts'), '');
		fs.rmSync(path.join(dir, 'dist/nodes/Prospecting/ProspectingTrigger.node.json'));
		fs.mkdirSync(path.join(dir, 'dist/sandbox'));
		fs.writeFileSync(path.join(dir, 'dist/sandbox/server.js'), '');
		fs.mkdirSync(path.join(dir, 'examples'));
		fs.writeFileSync(path.join(dir, 'examples/flow.json'), '{}');
		editJson(path.join(dir, 'package.json'), (pkg) => {
			// "files" without its exclusions of maps and declarations, and with the examples.
			pkg.files = ['dist', 'README.md', 'LICENSE.md', 'CHANGELOG.md', 'examples'];
		});

		const { status, output } = run('check-tarball.mjs', ['--dir', dir]);
		expect(status).toBe(1);
		expect(output).toContain('❌ Packed tarball:');
		expect(output).toContain('unexpected: dist/nodes/Prospecting/transport/request.js.map (source map)');
		expect(output).toContain('unexpected: dist/nodes/Prospecting/transport/request.test.js (test)');
		expect(output).toContain('unexpected: dist/nodes/Prospecting/transport/request.ts (TypeScript source)');
		expect(output).toContain('unexpected: dist/sandbox/server.js (sandbox/ is not part of the package)');
		expect(output).toContain('unexpected: examples/flow.json (examples/ is not part of the package)');
		expect(output).toContain(
			'unexpected: dist/nodes/Prospecting/Prospecting.node.d.ts (type declarations (n8n does not load them))',
		);
		expect(output).toContain('missing: dist/nodes/Prospecting/ProspectingTrigger.node.json');
	}, 60_000);

	test('expects the built module and codex of a node added to the sources, and reports a listed node that was not built', () => {
		const dir = copyOfBuilt();
		fs.writeFileSync(path.join(dir, 'nodes/Prospecting/ProspectingPoll.node.ts'), 'export {};\n');
		fs.writeFileSync(path.join(dir, 'nodes/Prospecting/ProspectingPoll.node.json'), '{}');
		editJson(path.join(dir, 'package.json'), (pkg) => {
			(pkg.n8n as { nodes: string[] }).nodes.push('dist/nodes/Prospecting/ProspectingPoll.node.js');
		});
		const { status, output } = run('check-tarball.mjs', ['--dir', dir]);
		expect(status).toBe(1);
		expect(output).toContain('missing: dist/nodes/Prospecting/ProspectingPoll.node.js');
		expect(output).toContain('missing: dist/nodes/Prospecting/ProspectingPoll.node.json');

		fs.writeFileSync(path.join(dir, 'dist/nodes/Prospecting/ProspectingPoll.node.js'), '');
		fs.writeFileSync(path.join(dir, 'dist/nodes/Prospecting/ProspectingPoll.node.json'), '{}');
		expect(run('check-tarball.mjs', ['--dir', dir]).status).toBe(0);
	}, 60_000);
});

describe('GitHub Actions workflows (npm run lint:workflows)', () => {
	test("are valid workflows, and CI runs .ci/run's steps", () => {
		const { status, output } = run('check-workflows.mjs', ['--dir', built]);
		expect(output).toContain('✅ .github/workflows/ci.yml: valid workflow');
		expect(output).toContain('✅ .github/workflows/release.yml: valid workflow');
		expect(output).toMatch(/✅ .github\/workflows\/ci.yml runs the \d+ npm steps of .ci\/run, in order/);
		expect(status).toBe(0);
	});

	test('fail on a workflow GitHub would reject, and on a CI workflow that skips a step of .ci/run', () => {
		const dir = copyOfBuilt();
		edit(path.join(dir, '.github/workflows/release.yml'), (text) => text.replace('id-token: write', 'id-token: always'));
		edit(path.join(dir, '.github/workflows/ci.yml'), (text) => text.replace('      - run: npm test\n', ''));
		const { status, output } = run('check-workflows.mjs', ['--dir', dir]);
		expect(status).toBe(1);
		expect(output).toMatch(/❌ .github\/workflows\/release.yml: \d+ problems/);
		expect(output).toContain('❌ .github/workflows/ci.yml and .ci/run run different steps');
		expect(output).toContain('ci.yml:  npm ci → npm run lint → npm run check:tarball → npm run test:e2e');
	});
});

describe('release tag (release workflow)', () => {
	test("passes the tag of a released version, once package.json has it and CHANGELOG a section for it", () => {
		const changelog = fs.readFileSync(path.join(built, 'CHANGELOG.md'), 'utf8');
		const released = /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/m.exec(changelog)?.[1];
		expect(released).toBeDefined();
		const dir = copyOfBuilt();
		editJson(path.join(dir, 'package.json'), (pkg) => {
			pkg.version = released;
		});
		const { status, output } = run('check-release-tag.mjs', [`v${released}`, '--dir', dir]);
		expect(output).toContain(`✅ Tag v${released} is package.json's version`);
		expect(status).toBe(0);
	});

	test('refuses a tag that is not the version, and a version without a CHANGELOG section', () => {
		const dir = copyOfBuilt();
		editJson(path.join(dir, 'package.json'), (pkg) => {
			pkg.version = '9.9.9';
		});
		const { status, output } = run('check-release-tag.mjs', ['v9.9.8', '--dir', dir]);
		expect(status).toBe(1);
		expect(output).toContain("tag v9.9.8 does not match package.json's version 9.9.9 (expected tag v9.9.9)");
		expect(output).toContain('CHANGELOG.md has no "## [9.9.9]" section');
	});
});
