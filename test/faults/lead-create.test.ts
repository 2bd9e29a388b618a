/**
 * Lead Create over random fault schedules (test/faults/writes/): items whose contacts collide, the options, Retry On
 * Fail, Continue On Fail, expressions that change per try, a fault per request, the service's clock, a Stop, two
 * executions and a retried one, each judged from the service's own record. docs/dev/writes.md names the invariants.
 */
import { useSandbox } from '../support/sandbox';
import { checkWriteSchedules } from './writes/property';
import { leadCreateSchedule } from './writes/schedule';

const { sandbox } = useSandbox({ rateLimit: false, dataset: { leads: 20, routines: 3, prospections: 5 } });

it('Lead Create keeps every write-path invariant over random fault schedules', async () => {
	await checkWriteSchedules(sandbox, leadCreateSchedule, { numRuns: 400, seed: 55 });
}, 24 * 3600_000);
