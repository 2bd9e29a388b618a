/**
 * The manual install that docs/installation.md tells self-hosted users to run, in one place: the docs show
 * `manualInstallCommand('~/.n8n/nodes', <package or tarball>)` and test/e2e/manual-install.e2e.ts runs the same
 * command on a clean user folder (and checks the docs show it).
 *
 * `--prefix <nodes folder>` installs into that folder even before it has a package.json (from inside it, a plain
 * `npm install` would install into the nearest parent folder that has one). `--omit=peer` leaves out the peer
 * dependency `n8n-workflow`, which n8n provides: npm 7+ would otherwise install it with `isolated-vm` (about 144 MB,
 * and `isolated-vm` does not build on Node 20). n8n's own installer strips peer dependencies the same way.
 */

/** The nodes folder of n8n's default user folder (N8N_USER_FOLDER, else the home folder). */
export const DEFAULT_NODES_FOLDER = '~/.n8n/nodes';

/** `npm install --prefix <nodes folder> --omit=peer <package>`, as arguments after `npm`. */
export function manualInstallArgs(nodesFolder: string, packageSpec: string): string[] {
	return ['install', '--prefix', nodesFolder, '--omit=peer', packageSpec];
}

/** The command line as the docs print it. */
export function manualInstallCommand(nodesFolder: string, packageSpec: string): string {
	return ['npm', ...manualInstallArgs(nodesFolder, packageSpec)].join(' ');
}
