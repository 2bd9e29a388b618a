/**
 * One task at a time per key, in this process. Lead Create with Skip If Exists holds the keys of a
 * lead's contacts from its search to its creation, so a form posted twice at once gives one lead.
 */

/** The last task queued per key; removed when it ends with nothing queued behind it. */
const tails = new Map<string, Promise<void>>();

async function lock(key: string): Promise<() => void> {
	const previous = tails.get(key) ?? Promise.resolve();
	let unlock!: () => void;
	const held = new Promise<void>((resolve) => (unlock = resolve));
	const tail = previous.then(async () => await held);
	tails.set(key, tail);
	await previous;
	return () => {
		unlock();
		if (tails.get(key) === tail) tails.delete(key);
	};
}

/** Runs `task` holding every key; keys are taken in one order, so two tasks never wait on each other. */
export async function withKeysHeld<T>(keys: string[], task: () => Promise<T>): Promise<T> {
	const unlocks: Array<() => void> = [];
	try {
		for (const key of [...new Set(keys)].sort()) unlocks.push(await lock(key));
		return await task();
	} finally {
		// All released at once, before any waiting task resumes: the order does not matter.
		for (const unlock of unlocks) unlock();
	}
}
