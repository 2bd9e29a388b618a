/** Peak resident memory of n8n's processes while a case runs: VmRSS read from /proc every few hundred ms. */
import { readFileSync } from 'node:fs';

export interface MemoryPeaks {
	/** Peak RSS in MB per role (main, webhook, worker-1, ...). */
	peakMbByRole: Record<string, number>;
	samples: number;
}

function rssKb(pid: number): number | undefined {
	try {
		const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) : undefined;
	} catch {
		return undefined; // the process has gone
	}
}

export function sampleMemory(processes: Array<{ role: string; pid: number }>, everyMs = 250): { stop(): MemoryPeaks } {
	const peakKb: Record<string, number> = {};
	let samples = 0;
	const take = () => {
		samples++;
		for (const { role, pid } of processes) {
			const kb = rssKb(pid);
			if (kb !== undefined) peakKb[role] = Math.max(peakKb[role] ?? 0, kb);
		}
	};
	take();
	const timer = setInterval(take, everyMs);
	return {
		stop() {
			clearInterval(timer);
			take();
			const peakMbByRole = Object.fromEntries(Object.entries(peakKb).map(([role, kb]) => [role, Math.round(kb / 102.4) / 10]));
			return { peakMbByRole, samples };
		},
	};
}
