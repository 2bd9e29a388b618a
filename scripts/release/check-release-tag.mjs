#!/usr/bin/env node
// Before publishing: the pushed tag must be "v" + package.json's version, and CHANGELOG.md must have that
// version's section, so that what npm shows, the tag and the changelog all name the same release.
//
//   node scripts/release/check-release-tag.mjs v1.2.3 [--dir DIR]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function main() {
	const [tag, flag, dirArg] = process.argv.slice(2);
	if (!tag || (flag && (flag !== '--dir' || !dirArg))) {
		throw new Error('Usage: check-release-tag.mjs <tag> [--dir DIR]');
	}
	const dir = dirArg ? path.resolve(dirArg) : repoRoot;
	const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	const problems = [];
	if (tag !== `v${version}`) {
		problems.push(`tag ${tag} does not match package.json's version ${version} (expected tag v${version})`);
	}
	const changelog = fs.readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8');
	const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	if (!new RegExp(`^## \\[${escaped}\\]`, 'm').test(changelog)) {
		problems.push(`CHANGELOG.md has no "## [${version}]" section`);
	}
	if (problems.length > 0) {
		for (const problem of problems) console.log(`❌ ${problem}`);
		process.exitCode = 1;
		return;
	}
	console.log(`✅ Tag ${tag} is package.json's version and has a CHANGELOG.md section`);
}

try {
	main();
} catch (error) {
	console.error(`❌ Release tag could not be checked: ${error.message}`);
	process.exitCode = 1;
}
