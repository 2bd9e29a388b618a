#!/usr/bin/env node
// npm run faults -- [--runs N] [--seed S] [--path P] [--survey] [--only <suite name start>] [jest arguments...]
// Long runs of the fault schedules (test/faults/): the same properties `npm test` runs with a fixed seed, here with
// as many schedules and whatever seed are asked. A failure prints its seed, its path and its shrunk schedule as a
// story; --seed S --path P replays it. --survey runs every schedule without stopping at a failure and lists, per kind
// of violation, the first seed and path that shows it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const env = { ...process.env };
const rest = [];
let only = '';
for (let i = 0; i < args.length; i++) {
	const [flag, inline] = args[i].split('=', 2);
	const value = () => inline ?? args[++i];
	if (flag === '--runs') env.FAULT_RUNS = value();
	else if (flag === '--seed') env.FAULT_SEED = value();
	else if (flag === '--path') env.FAULT_PATH = value();
	else if (flag === '--survey') env.FAULT_SURVEY = 'true';
	else if (flag === '--only') only = value();
	else rest.push(args[i]);
}
for (const name of ['FAULT_RUNS', 'FAULT_SEED']) {
	if (env[name] !== undefined && !/^-?\d+$/.test(env[name])) {
		console.error(`faults: ${name === 'FAULT_RUNS' ? '--runs' : '--seed'} takes a whole number, not "${env[name]}"`);
		process.exit(2);
	}
}
const pattern = `test/faults/${only ? `${only}[^/]*` : ''}`;
const jest = path.join(root, 'node_modules', '.bin', 'jest');
// A long run has no time bound of its own: the number of schedules is the bound.
const result = spawnSync(jest, [pattern, '--testTimeout', String(24 * 3600 * 1000), ...rest], { stdio: 'inherit', env, cwd: root });
process.exit(result.status ?? 1);
