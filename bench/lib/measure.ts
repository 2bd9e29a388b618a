/** Wall-clock and CPU time of one async piece of work in this process. */
export interface Measured<T> {
	value: T;
	wallMs: number;
	/** user + system CPU of this process while the work ran (the sandbox runs in another process). */
	cpuMs: number;
}

export async function measure<T>(work: () => Promise<T>): Promise<Measured<T>> {
	const cpuBefore = process.cpuUsage();
	const start = performance.now();
	const value = await work();
	const wallMs = performance.now() - start;
	const cpu = process.cpuUsage(cpuBefore);
	return { value, wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

export function median(values: number[]): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function round(value: number, digits = 2): number {
	if (!Number.isFinite(value)) return value;
	const f = 10 ** digits;
	return Math.round(value * f) / f;
}

export function percentile(values: number[], p: number): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
	return sorted[Math.max(0, index)];
}
