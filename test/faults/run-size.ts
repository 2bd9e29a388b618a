/**
 * How many schedules a fault-schedule property runs, and from which seed: a fixed seed and the suite's own count in
 * `npm test`, or what `npm run faults -- --runs N --seed S` asks for a long run.
 */
export interface RunSize {
	numRuns: number;
	seed: number;
	/** Replays one schedule of the run (and shrinks it), as a failure printed it. */
	path?: string;
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
	const path = process.env.FAULT_PATH || undefined;
	return { numRuns: wholeNumber('FAULT_RUNS') ?? defaults.numRuns, seed: wholeNumber('FAULT_SEED') ?? defaults.seed, ...(path ? { path } : {}) };
}

/** `npm run faults -- --survey`: every schedule runs, none stops the run; the failures are listed by kind at the end. */
export const surveying = (): boolean => process.env.FAULT_SURVEY === 'true';
