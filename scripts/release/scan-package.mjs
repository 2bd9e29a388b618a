#!/usr/bin/env node
// Runs n8n's verification scanner (@n8n/scan-community-package) offline, on the two legs it lints when
// n8n verifies a release: the source (with the scanner's own source patterns) and the files of the packed
// tarball (compiled JavaScript and the published package.json). The third leg, npm provenance, needs the
// registry and is covered by the release workflow publishing with --provenance.
//
//   node scripts/release/scan-package.mjs [--source DIR] [--package DIR]
//
// --source DIR   source tree to lint (default: this repository)
// --package DIR  an unpacked package to lint instead of packing the source tree with `npm pack`
// Exits 1 on any finding, printing the scanner's own report.
import { ESLint } from 'eslint';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { packAndUnpack } from './pack.mjs';

// The same glob library, options and ignores as the scanner, only to report how many files each leg read.
const scannerRequire = createRequire(createRequire(import.meta.url).resolve('@n8n/scan-community-package/package.json'));
const glob = scannerRequire('fast-glob');
function countFiles(dir, patterns) {
	return glob.sync(patterns, { cwd: dir, ignore: ['node_modules/**', '**/package-lock.json'] }).length;
}

/**
 * The scanner passes a package with warnings (its verdict counts errors only); we hold ours to no finding
 * at all, so warnings are read with the scanner's own configuration and reported the same way.
 */
async function scannerWarnings(buildScanConfig, dir, patterns) {
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await buildScanConfig(),
	});
	const files = glob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = (await eslint.lintFiles(files)).filter((result) => result.warningCount > 0);
	if (results.length === 0) return undefined;
	return (await eslint.loadFormatter('stylish')).format(results);
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function parseArgs(argv) {
	const options = { source: repoRoot, package: undefined };
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = argv[i + 1];
		if ((flag === '--source' || flag === '--package') && value) {
			options[flag.slice(2)] = path.resolve(value);
			i++;
		} else {
			throw new Error(`Unknown argument: ${flag} (use --source DIR and/or --package DIR)`);
		}
	}
	return options;
}

/** Every file package.json's "n8n" block lists must be built before the tarball can be scanned. */
function missingBuiltFiles(sourceDir) {
	const pkg = JSON.parse(fs.readFileSync(path.join(sourceDir, 'package.json'), 'utf8'));
	const listed = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	return listed.filter((file) => !fs.existsSync(path.join(sourceDir, file)));
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	// The scanner makes a temporary folder when it is loaded; give it one of ours, removed at the end.
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-scan-'));
	process.env.TMPDIR = workDir;
	// eslint-plugin-n8n-nodes-base treats every file as "Test.node.ts" when NODE_ENV is "test" (its own test
	// mode, read when it loads), which would report our real node files under wrong names.
	if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;
	let failed = false;
	try {
		const { analyzePackage, buildScanConfig, SOURCE_FILE_PATTERNS } = await import(
			'@n8n/scan-community-package/scanner/scanner.mjs'
		);
		const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

		let packageDir = options.package;
		if (!packageDir) {
			const missing = missingBuiltFiles(options.source);
			if (missing.length > 0) {
				throw new Error(`Not built (run npm run build first): ${missing.join(', ')}`);
			}
			packageDir = packAndUnpack(options.source, fs.mkdtempSync(path.join(workDir, 'pack-')));
		}

		const legs = [
			{ name: 'source', dir: options.source, patterns: SOURCE_FILE_PATTERNS },
			{ name: 'packed tarball', dir: packageDir, patterns: TARBALL_FILE_PATTERNS },
		];
		for (const leg of legs) {
			const result = await analyzePackage(leg.dir, leg.patterns);
			const label = `n8n scanner, ${leg.name}: ${countFiles(leg.dir, leg.patterns)} files (${leg.patterns.join(', ')})`;
			const warnings = result.passed
				? await scannerWarnings(buildScanConfig, leg.dir, leg.patterns)
				: undefined;
			if (result.passed && !warnings) {
				console.log(`✅ ${label}: no finding`);
			} else if (result.passed) {
				failed = true;
				console.log(`❌ ${label}: warnings (n8n's scanner passes them; this package does not)`);
				console.log(warnings);
			} else {
				failed = true;
				console.log(`❌ ${label}: ${result.message}`);
				if (result.details) console.log(result.details);
			}
		}
	} finally {
		fs.rmSync(workDir, { recursive: true, force: true });
	}
	if (failed) process.exitCode = 1;
}

main().catch((error) => {
	console.error(`❌ n8n scanner could not run: ${error.message}`);
	process.exitCode = 1;
});
