#!/usr/bin/env node
// Validates the GitHub Actions workflows offline with action-validator (GitHub's workflow schema, compiled
// to WebAssembly), and checks that the CI workflow runs exactly the npm steps of .ci/run, in the same order.
//
//   node scripts/release/check-workflows.mjs [--dir DIR]      (default: this repository)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { validateWorkflow } = require('@action-validator/core');

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The `npm …` commands a text runs, one per line, in order (shell lines or `run:` steps). */
function npmSteps(text) {
	return text
		.split('\n')
		.map((line) => line.replace(/^\s*(?:-\s*)?(?:run:\s*)?/, '').trim())
		.filter((line) => /^npm (ci|run |test)/.test(line));
}

function describe(error) {
	const where = error.location ? ` (line ${error.location.line}, column ${error.location.column})` : '';
	const at = error.path ? ` at ${error.path}` : '';
	return `${error.title}${at}${where}${error.detail ? `: ${error.detail}` : ''}`;
}

function main() {
	const args = process.argv.slice(2);
	if (args.length > 0 && !(args.length === 2 && args[0] === '--dir')) {
		throw new Error('Usage: check-workflows.mjs [--dir DIR]');
	}
	const dir = args[1] ? path.resolve(args[1]) : repoRoot;
	const workflowsDir = path.join(dir, '.github', 'workflows');
	const files = fs.readdirSync(workflowsDir).filter((file) => /\.ya?ml$/.test(file)).sort();
	let failed = false;
	for (const file of files) {
		const { errors } = validateWorkflow(fs.readFileSync(path.join(workflowsDir, file), 'utf8'));
		if (errors.length === 0) {
			console.log(`✅ .github/workflows/${file}: valid workflow`);
		} else {
			failed = true;
			console.log(`❌ .github/workflows/${file}: ${errors.length} problems`);
			for (const error of errors) console.log(`  ${describe(error)}`);
		}
	}

	const ciRun = npmSteps(fs.readFileSync(path.join(dir, '.ci', 'run'), 'utf8'));
	const ciWorkflow = npmSteps(fs.readFileSync(path.join(workflowsDir, 'ci.yml'), 'utf8'));
	if (ciRun.join('\n') === ciWorkflow.join('\n')) {
		console.log(`✅ .github/workflows/ci.yml runs the ${ciRun.length} npm steps of .ci/run, in order`);
	} else {
		failed = true;
		console.log('❌ .github/workflows/ci.yml and .ci/run run different steps');
		console.log(`  .ci/run: ${ciRun.join(' → ')}`);
		console.log(`  ci.yml:  ${ciWorkflow.join(' → ')}`);
	}
	if (failed) process.exitCode = 1;
}

try {
	main();
} catch (error) {
	console.error(`❌ Workflows could not be checked: ${error.message}`);
	process.exitCode = 1;
}
