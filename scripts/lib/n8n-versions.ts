/**
 * The n8n versions the package is proven on, read from scripts/lib/n8n-versions.txt (one list for the shell scripts and
 * the TypeScript ones), and what differs between n8n's major versions for the harness.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const VERSIONS_FILE = path.join(__dirname, 'n8n-versions.txt');

/** Every version in scripts/lib/n8n-versions.txt, in order (the first is the default). */
export function supportedN8nVersions(): string[] {
	return readFileSync(VERSIONS_FILE, 'utf8')
		.split('\n')
		.map((line) => line.replace(/#.*/, '').trim())
		.filter(Boolean);
}

/** The version a run uses unless told otherwise: N8N_VERSION, or the first of the list. */
export function defaultN8nVersion(): string {
	return process.env.N8N_VERSION || supportedN8nVersions()[0];
}

export function n8nMajor(version: string): number {
	const major = Number.parseInt(version, 10);
	if (!Number.isFinite(major)) throw new Error(`Not an n8n version: "${version}"`);
	return major;
}
