import type { N8nInstance } from '../../scripts/lib/bootstrap';
import { stopOnInterrupt } from '../../scripts/lib/interrupt';
import type { SandboxProcess } from '../../dev/sandbox-client';

/**
 * Stops what a benchmark started, n8n first and then the sandbox it calls, at the benchmark's end and on Ctrl-C.
 * `started` reads what is running now, so servers started later are stopped too.
 */
export function stopTogether(started: () => { n8n?: N8nInstance; sandbox?: SandboxProcess }) {
	const stopAll = async () => {
		const { n8n, sandbox } = started();
		await n8n?.stop().catch(() => undefined);
		await sandbox?.stop().catch(() => undefined);
	};
	return { stopAll, removeInterruptHandlers: stopOnInterrupt(stopAll) };
}
