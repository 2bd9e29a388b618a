/**
 * How many schedules a fault-schedule property runs, and from which seed: a fixed seed and the suite's own count in
 * `npm test`, or what `npm run faults -- --runs N --seed S` asks for a long run.
 */
export interface RunSize {
	numRuns: number;
	seed: number;
}

function wholeNumber(name: string): number | undefined {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return undefined;
	const value = Number(raw);
	if (!Number.isSafeInteger(value)) throw new Error(`${name} must be a whole number, not "${raw}"`);
	return value;
}

/** The run size of a property whose `npm test` run is `numRuns` schedules from `seed`. */
export function runSize(defaults: RunSize): RunSize {
	return { numRuns: wholeNumber('FAULT_RUNS') ?? defaults.numRuns, seed: wholeNumber('FAULT_SEED') ?? defaults.seed };
}
