import type { BenchConfig } from '../lib/config';

export async function runTriggerInProcess(_config: BenchConfig): Promise<unknown> {
	throw new Error('not written yet');
}
