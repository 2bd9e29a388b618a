/**
 * The Docker recipe of docs/installation.md as a user copies it: the compose file the guide prints is the
 * repository's docker/compose.yaml, valid under the Compose specification's JSON schema (as dclint ships it; no
 * Docker engine is needed), and the build line builds this repository's tarball in a Node.js container that
 * satisfies the package's engines, into the folder the install line reads. Compose itself and n8n run the recipe in
 * test/e2e/docker.e2e.ts.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

import { DCLinter } from 'dclint';

import { read, root } from './docs-support';

const guide = read('docs/installation.md');
const docker = guide.slice(guide.indexOf('\n## Docker'), guide.indexOf('\n## ', guide.indexOf('\n## Docker') + 1));
const composeFile = read('docker/compose.yaml');
const packageJson = JSON.parse(read('package.json')) as { engines: { node: string }; repository: { url: string } };

/** Schema errors of a compose file, with every style rule of dclint off: the Compose specification alone. */
function schemaErrors(file: string): string[] {
	const rules = readdirSync(path.join(root, 'node_modules', 'dclint', 'dist', 'types', 'src', 'rules'))
		.filter((name) => name.endsWith('-rule.d.ts'))
		.map((name) => [name.replace(/-rule\.d\.ts$/, ''), 0]);
	const linter = new DCLinter({ rules: Object.fromEntries(rules), quiet: true, debug: false, exclude: [] });
	return linter.lintFiles([file], false).flatMap((result) => result.messages.map((message) => `${message.rule}: ${message.message}`));
}

describe('the Docker recipe', () => {
	it('prints docker/compose.yaml as the repository has it', () => {
		const printed = /```yaml\n([\s\S]*?)```/.exec(docker)?.[1];
		expect(printed).toBe(composeFile);
	});

	it('docker/compose.yaml follows the Compose specification; a file with a key Compose does not know fails', () => {
		expect(schemaErrors(path.join(root, 'docker', 'compose.yaml'))).toEqual([]);
		expect(schemaErrors(path.join(root, 'test', 'fixtures', 'compose-unknown-key.yaml'))).toEqual([
			expect.stringMatching(/^invalid-schema: .*instancePath="\/services\/n8n".*must NOT have additional properties/),
		]);
	});

	it("builds this repository's tarball in a Node.js container the package runs on, where the install line reads it", () => {
		const build = /^docker run .* node:(\d+) sh -c '(.*)'$/m.exec(docker);
		expect(build).not.toBeNull();
		const [, nodeMajor, script] = build!;
		expect(Number(nodeMajor)).toBeGreaterThanOrEqual(Number(/(\d+)/.exec(packageJson.engines.node)![1]));
		const repository = packageJson.repository.url.replace(/^git\+/, '');
		expect(script).toBe(`git clone --depth 1 ${repository} && cd n8n-nodes-prospecting && npm ci && npm pack --pack-destination /out`);
		expect(build![0]).toContain('-v "$PWD:/out"');
		// Files written as the user who runs the line, not as root: the install line and n8n's user `node` read them.
		expect(build![0]).toContain('-u "$(id -u):$(id -g)" -e HOME=/tmp');
		expect(docker).toMatch(/^mkdir -p nodes && docker run --rm -u "\$\(id -u\):\$\(id -g\)" -e HOME=\/tmp -v "\$PWD:\/work" -w \/work node:\d+ npm install --prefix \.\/nodes --omit=peer \.\/n8n-nodes-prospecting-\*\.tgz$/m);
	});
});
