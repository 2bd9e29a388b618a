#!/usr/bin/env node
// After publishing: n8n's full verification scan of the published version, as n8n runs it
// (`npx @n8n/scan-community-package <name>@<version>`): provenance statement, the attested source commit
// fetched from GitHub and linted, and the published tarball linted. Needs the registry and GitHub, so it runs
// in the release workflow only. Retried for a few minutes while the registry makes the new version visible.
//
//   node scripts/release/scan-published.mjs <name>@<version>
import { setTimeout as delay } from 'node:timers/promises';

const ATTEMPTS = 6;
const PAUSE_MS = 30_000;

async function main() {
	const spec = process.argv[2];
	const at = spec ? spec.lastIndexOf('@') : -1;
	if (!spec || at <= 0) throw new Error('Usage: scan-published.mjs <name>@<version>');
	const [name, version] = [spec.slice(0, at), spec.slice(at + 1)];
	// eslint-plugin-n8n-nodes-base has a test mode that would misname our node files (see scan-package.mjs).
	if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;
	const { analyzePackageByName } = await import('@n8n/scan-community-package/scanner/scanner.mjs');
	let result;
	for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
		result = await analyzePackageByName(name, version);
		if (result.passed) break;
		if (attempt < ATTEMPTS) {
			console.log(`Attempt ${attempt} of ${ATTEMPTS} failed (${result.message}); again in ${PAUSE_MS / 1000} s`);
			await delay(PAUSE_MS);
		}
	}
	if (result.passed) {
		console.log(`✅ ${name}@${result.version} passes n8n's verification scan, provenance included`);
		return;
	}
	console.log(`❌ ${name}@${result.version} fails n8n's verification scan: ${result.message}`);
	if (result.details) console.log(result.details);
	process.exitCode = 1;
}

main().catch((error) => {
	console.error(`❌ n8n's verification scan could not run: ${error.message}`);
	process.exitCode = 1;
});
