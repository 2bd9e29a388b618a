/**
 * Installs this package into an n8n user folder the way a user installs a community package by hand: the tarball
 * `npm pack` produces, npm-installed into <user folder>/.n8n/nodes. n8n 2.41.1 scans .n8n/nodes/node_modules for
 * `n8n-nodes-*` packages at start (community-packages module, nodeLoaders -> scanDirectoryForPackages), and resolves
 * `n8n-workflow` from its own installation, so the peer dependency is not installed.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { repoRoot } from './provision';

const run = promisify(execFile);

/** `npm run build`: dist/ as the package ships it. */
export async function buildPackage(): Promise<void> {
	await run('npm', ['run', '--silent', 'build'], { cwd: repoRoot, maxBuffer: 32 * 1024 * 1024 });
}

/** `npm pack` of the built package (run `npm run build` first); returns the tarball's path. */
export async function packPackage(destination: string): Promise<string> {
	mkdirSync(destination, { recursive: true });
	// --ignore-scripts: the caller has just built; prepack would build a second time.
	const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], {
		cwd: repoRoot,
		maxBuffer: 16 * 1024 * 1024,
	});
	const [info] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
	return path.join(destination, path.basename(info.filename));
}

export interface InstalledPackage {
	directory: string;
	name: string;
	version: string;
}

export async function installPackageTarball(userFolder: string, tarball: string): Promise<InstalledPackage> {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	const manifest = path.join(nodesDir, 'package.json');
	if (!existsSync(manifest)) {
		writeFileSync(manifest, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
	}
	try {
		await run(
			'npm',
			[
				'install',
				tarball,
				'--offline', // the package has no runtime dependencies: nothing to fetch
				'--legacy-peer-deps', // n8n-workflow comes from n8n itself
				'--no-audit',
				'--no-fund',
				'--ignore-scripts',
				'--bin-links=false',
				'--package-lock=false',
			],
			{ cwd: nodesDir, maxBuffer: 16 * 1024 * 1024 },
		);
	} catch (error) {
		const stderr = (error as { stderr?: string }).stderr ?? '';
		throw new Error(`Installing ${path.basename(tarball)} into ${nodesDir} failed:\n${stderr.slice(-3000)}`);
	}
	const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
	const directory = path.join(nodesDir, 'node_modules', pkg.name);
	if (!existsSync(path.join(directory, 'package.json'))) throw new Error(`${pkg.name} is missing from ${directory} after install`);
	return { directory, name: pkg.name, version: pkg.version };
}
