/**
 * Routine Add Lead, Webhook Create and Webhook Delete over random fault schedules (test/faults/writes/), judged from
 * the service's own record: never applied twice by one execution, never a success the service did not record.
 */
import { useSandbox } from '../support/sandbox';
import { checkWriteSchedules } from './writes/property';
import { otherWriteSchedule } from './writes/schedule';

const { sandbox } = useSandbox({ rateLimit: false, dataset: { leads: 20, routines: 3, prospections: 5 } });

it('Routine Add Lead and the webhook writes keep every write-path invariant over random fault schedules', async () => {
	await checkWriteSchedules(sandbox, otherWriteSchedule, { numRuns: 200, seed: 56 });
}, 24 * 3600_000);
