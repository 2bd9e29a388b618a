import type { BenchConfig } from '../lib/config';

export interface RealN8nOptions {
	alternative: boolean;
	trigger: boolean;
	log: (text: string) => void;
	smallDataset: (leads: number) => Record<string, number>;
}

export async function runRealN8n(_config: BenchConfig, _options: RealN8nOptions): Promise<unknown> {
	throw new Error('not written yet');
}
