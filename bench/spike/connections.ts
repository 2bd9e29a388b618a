/**
 * Which n8n process holds which connection to the sandbox, so that each call in the sandbox's log (which records the
 * caller's port) can be traced to a worker: `ss -tnp` read every few hundred ms while a case runs. n8n keeps its
 * connections open between calls, so each is seen many times over.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Local port → role for connections to `serverPort` on loopback, from one `ss` listing. */
export function parseConnections(listing: string, serverPort: number, roleByPid: Map<number, string>): Array<[number, string]> {
	const found: Array<[number, string]> = [];
	for (const line of listing.split('\n')) {
		// Recv-Q Send-Q Local:Port Peer:Port Process (a state filter leaves the State column out)
		const fields = line.trim().split(/\s+/);
		if (fields.length < 5) continue;
		const local = /:(\d+)$/.exec(fields[2]);
		const peer = /:(\d+)$/.exec(fields[3]);
		if (!local || !peer || Number(peer[1]) !== serverPort) continue;
		for (const match of line.matchAll(/pid=(\d+)/g)) {
			const role = roleByPid.get(Number(match[1]));
			if (role) found.push([Number(local[1]), role]);
		}
	}
	return found;
}

export function sampleConnections(
	processes: Array<{ role: string; pid: number }>,
	serverPort: number,
	everyMs = 250,
): { stop(): Promise<Map<number, string>> } {
	const roleByPid = new Map(processes.map(({ role, pid }) => [pid, role]));
	const roleByPort = new Map<number, string>();
	let running: Promise<void> = Promise.resolve();
	const take = () => {
		running = run('ss', ['-tnpH', 'state', 'established'], { maxBuffer: 16 * 1024 * 1024 })
			.then(({ stdout }) => {
				for (const [port, role] of parseConnections(stdout, serverPort, roleByPid)) roleByPort.set(port, role);
			})
			.catch(() => undefined);
	};
	take();
	const timer = setInterval(take, everyMs);
	return {
		async stop() {
			clearInterval(timer);
			await running;
			return roleByPort;
		},
	};
}
