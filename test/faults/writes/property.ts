/**
 * The write-path property: each schedule drawn runs through n8n's engine against the suite's sandbox and is judged
 * from the service's record. A failure throws its violations, then the story of what the service received and what
 * each execution said (fast-check adds the seed, the path and the shrunk schedule). With `npm run faults -- --survey`
 * no failure stops the run: every schedule breaking an invariant is listed at the end, by seed and path.
 */
import fc from 'fast-check';

import type { RunningSandbox } from '../../../sandbox';
import { runSize, surveying, type RunSize } from '../run-size';
import { historyStory, violationsOf, type Violation } from './judge';
import { runWriteSchedule } from './run';
import { story, type WriteSchedule } from './schedule';

export async function checkWriteSchedules(sandbox: RunningSandbox, schedules: fc.Arbitrary<WriteSchedule>, defaults: RunSize): Promise<void> {
	const size = runSize(defaults);
	const failures: Array<{ path: string; violation: Violation; schedule: WriteSchedule }> = [];
	let run = 0;
	await fc.assert(
		fc.asyncProperty(schedules, fc.scheduler(), async (schedule, scheduler) => {
			const path = String(run++);
			const history = await runWriteSchedule(sandbox, schedule, scheduler);
			const violations = violationsOf(history);
			if (surveying()) {
				for (const violation of violations) failures.push({ path, violation, schedule });
				return;
			}
			if (violations.length > 0) throw new Error(`${violations.map((violation) => violation.text).join('\n')}\n\n${historyStory(history)}`);
		}),
		size,
	);
	if (surveying()) {
		const lines = failures.map(({ path, violation, schedule }) => `--seed ${size.seed} --path ${path}: ${violation.invariant}: ${violation.text}\n    ${story(schedule).split('\n').join('\n    ')}`);
		process.stdout.write(`Survey of ${run} schedules from seed ${size.seed}, ${failures.length} violations:\n${lines.join('\n') || 'none'}\n`);
	}
}
