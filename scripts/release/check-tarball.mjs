#!/usr/bin/env node
// Checks that the packed tarball holds exactly what n8n loads plus the package's documents, and nothing else:
// no tests, sandbox, benchmarks, scripts, examples, source maps, declarations or TypeScript sources.
//
//   node scripts/release/check-tarball.mjs [--dir DIR]      (default: this repository; build first)
//
// The expected set is derived from the sources, so a new node, module or icon needs no edit here:
//   - package.json, README.md, LICENSE.md, CHANGELOG.md and package.json's "main";
//   - dist/<path>.js for every credentials/**/*.ts and nodes/**/*.ts (tsc's output, what the nodes require);
//   - dist/<path> for every icon (png, svg) and codex file (*.node.json) under nodes/ and credentials/ (gulp);
//   - every file listed in package.json's "n8n" block (so a listed node that is not built is reported).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { packedFiles } from './pack.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOCUMENTS = ['package.json', 'README.md', 'LICENSE.md', 'CHANGELOG.md'];
const SOURCE_FOLDERS = ['credentials', 'nodes'];
const NOT_SHIPPED_SOURCE = /\.(test|spec)\.ts$|\.d\.ts$/;
const COPIED_ASSET = /\.(png|svg)$|\.node\.json$/;

function filesUnder(dir, folder) {
	const root = path.join(dir, folder);
	if (!fs.existsSync(root)) return [];
	return fs
		.readdirSync(root, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)))
		.map((file) => file.split(path.sep).join('/'));
}

/** The exact set of paths the tarball of the package in dir must hold. */
export function expectedFiles(dir) {
	const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	const expected = new Set(DOCUMENTS);
	if (pkg.main) expected.add(path.posix.normalize(pkg.main));
	for (const file of SOURCE_FOLDERS.flatMap((folder) => filesUnder(dir, folder))) {
		if (file.endsWith('.ts') && !NOT_SHIPPED_SOURCE.test(file)) {
			expected.add(`dist/${file.replace(/\.ts$/, '.js')}`);
		} else if (COPIED_ASSET.test(file)) {
			expected.add(`dist/${file}`);
		}
	}
	for (const listed of [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])]) {
		expected.add(path.posix.normalize(listed));
	}
	return expected;
}

/** Why a file must not ship, in words, for the report. */
function whyUnexpected(file) {
	if (/\.map$/.test(file)) return 'source map';
	if (/\.d\.ts$/.test(file)) return 'type declarations (n8n does not load them)';
	if (/\.ts$/.test(file)) return 'TypeScript source';
	if (/(^|\/)(test|__tests__)\/|\.(test|spec)\.[cm]?js$/.test(file)) return 'test';
	const top = /^(?:dist\/)?(sandbox|bench|scripts|examples)\//.exec(file);
	if (top) return `${top[1]}/ is not part of the package`;
	if (file.startsWith('dist/')) return 'built file without a source under nodes/ or credentials/ (stale build?)';
	return 'not loaded by n8n';
}

/** Compares the packed file list with the expected set; returns the problems found, empty when exact. */
export function compareTarball(packed, expected) {
	const packedSet = new Set(packed);
	const unexpected = packed.filter((file) => !expected.has(file));
	const missing = [...expected].filter((file) => !packedSet.has(file)).sort();
	return [
		...unexpected.map((file) => `unexpected: ${file} (${whyUnexpected(file)})`),
		...missing.map((file) => `missing: ${file}`),
	];
}

function main() {
	const args = process.argv.slice(2);
	if (args.length > 0 && !(args.length === 2 && args[0] === '--dir')) {
		throw new Error('Usage: check-tarball.mjs [--dir DIR]');
	}
	const dir = args[1] ? path.resolve(args[1]) : repoRoot;
	const packed = packedFiles(dir);
	const problems = compareTarball(packed, expectedFiles(dir));
	if (problems.length > 0) {
		console.log(`❌ Packed tarball: ${packed.length} files, ${problems.length} differences from the expected set`);
		for (const problem of problems) console.log(`  ${problem}`);
		process.exitCode = 1;
		return;
	}
	const byKind = (test) => packed.filter(test).length;
	console.log(
		`✅ Packed tarball: exactly the ${packed.length} expected files ` +
			`(${byKind((f) => f.endsWith('.js'))} JavaScript, ${byKind((f) => /\.(svg|png)$/.test(f))} icons, ` +
			`${byKind((f) => f.endsWith('.node.json'))} codex, ${byKind((f) => DOCUMENTS.includes(f))} documents)`,
	);
}

try {
	main();
} catch (error) {
	console.error(`❌ Packed tarball could not be checked: ${error.message}`);
	process.exitCode = 1;
}
