// What `npm pack` puts in the tarball, read without running the package's scripts (the build runs
// before, as a step of its own), so that the checks see exactly what `npm publish` would upload.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function npm(args, cwd) {
	return execFileSync('npm', args, {
		cwd,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		maxBuffer: 64 * 1024 * 1024,
	});
}

/** Paths (relative, with forward slashes) of every file `npm pack` would ship from packageDir. */
export function packedFiles(packageDir) {
	const [report] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], packageDir));
	return report.files.map((file) => file.path).sort();
}

/** Packs packageDir into destDir and unpacks the tarball there; returns the unpacked package folder. */
export function packAndUnpack(packageDir, destDir) {
	const [report] = JSON.parse(
		npm(['pack', '--json', '--ignore-scripts', '--pack-destination', destDir], packageDir),
	);
	const unpacked = path.join(destDir, 'package');
	fs.mkdirSync(unpacked, { recursive: true });
	execFileSync('tar', ['-xzf', path.join(destDir, report.filename), '-C', unpacked, '--strip-components=1']);
	return unpacked;
}
