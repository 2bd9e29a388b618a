/** Bounded waits of the end-to-end suite: for a value to settle, and for a decided prospection's delivery. */
import type { Delivery, RunningSandbox } from '../../../sandbox';

export async function waitFor<T>(what: string, probe: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (done(value)) return value;
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: last value ${JSON.stringify(value).slice(0, 400)}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** Sets a prospection in progress to WON or LOST and waits until the sandbox has settled the delivery of its event. */
export async function decideProspection(sandbox: RunningSandbox, status: 'WON' | 'LOST') {
	const prospection = sandbox.control.prospections().find((p) => p.status === 'IN_PROGRESS')!;
	await sandbox.control.setProspectionStatus(prospection.id, status);
	const event = status === 'WON' ? 'prospection.won' : 'prospection.lost';
	const delivery = await waitFor(
		`the ${event} delivery`,
		() => sandbox.control.deliveries().find((d) => d.event === event && d.settled && JSON.parse(d.body).data?.prospection?.id === prospection.id),
		(d): d is Delivery => d !== undefined,
	);
	return { prospection, event, delivery: delivery as Delivery };
}
