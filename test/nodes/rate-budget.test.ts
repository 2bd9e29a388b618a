/** The shared rate budget's bookkeeping: answers in another order than the service counted them, and window ends. */
import { readRateAnswer } from '../../nodes/Prospecting/transport/rateHeaders';
import { RateBudget, type RateSettings, type Reservation } from '../../nodes/Prospecting/transport/ratePolicy';
/** A budget with the service's documented limits unless the test says otherwise. */
const newBudget = (settings: Partial<RateSettings> = {}) => new RateBudget({ limit: 200, windowMs: 60_000, clients: 1, ...settings });
/** Gives a budget an answer with these headers (and its reservation, when it answers one). */
const release = (budget: RateBudget, headers: Record<string, string>, status: number, reservation?: Reservation) =>
	budget.settle(reservation, readRateAnswer(headers, status));


const answer = (remaining: number, resetAt: number) => ({
	'x-ratelimit-limit': '200',
	'x-ratelimit-remaining': String(remaining),
	'x-ratelimit-reset': String(resetAt),
});

it('ends on the exact remaining count once nothing is in flight, whatever the order of the answers', async () => {
	const budget = newBudget();
	const resetAt = Date.now() + 60_000;
	release(budget, answer(200 - 1, resetAt), 200);
	// Two calls reserved A then B; the service counts B first (197 left), then A (196 left).
	await budget.acquire();
	await budget.acquire();
	release(budget, answer(196, resetAt), 200); // A's answer arrives first, B still in flight
	expect(budget.snapshot().remaining).toBe(195);
	release(budget, answer(197, resetAt), 200); // B's answer, nothing in flight any more
	expect(budget.snapshot().remaining).toBe(196);
});

it('keeps the lower count while calls are in flight, so other clients of the key are not overrun', async () => {
	const budget = newBudget();
	const resetAt = Date.now() + 60_000;
	release(budget, answer(150, resetAt), 200);
	await budget.acquire();
	await budget.acquire();
	// Another client spent 50 meanwhile: the first answer says 99 with one call still out.
	release(budget, answer(99, resetAt), 200);
	expect(budget.snapshot().remaining).toBe(98);
	release(budget, answer(98, resetAt), 200);
	expect(budget.snapshot().remaining).toBe(98);
});

it('ignores the figures of an answer from an earlier window', async () => {
	const budget = newBudget();
	const now = Date.now();
	release(budget, answer(10, now + 60_000), 200);
	release(budget, answer(0, now - 1_000), 200);
	expect(budget.snapshot().remaining).toBe(10);
});

it('gives back a slot counted twice even while other calls stay in flight (two executions sharing a key)', async () => {
	const budget = newBudget();
	const resetAt = Date.now() + 60_000;
	// A window already open: its earlier answers let three calls be in flight at once.
	for (let i = 0; i < 3; i++) release(budget, answer(100, resetAt), 200);
	await budget.acquire(); // A
	await budget.acquire(); // B
	await budget.acquire(); // C
	// The service counts A (99), B (98), C (97); B's answer arrives first.
	release(budget, answer(98, resetAt), 200);
	expect(budget.snapshot().remaining).toBe(96);
	await budget.acquire(); // D, reserved before A's answer arrives
	release(budget, answer(99, resetAt), 200); // A: C and D still in flight
	// At most C and D were counted after the lowest figure (98): 96 are surely left, not 95.
	expect(budget.snapshot().remaining).toBe(96);
});

describe('when a spent window ends', () => {
	// The service announces the reset in whole seconds (rounded up), up to a second after the window really ends.
	it("resumes the window's length after its first answer when that comes before the announced reset", async () => {
		const budget = newBudget({ windowMs: 300 });
		release(budget, answer(0, Date.now() + 2_000), 200);
		const { waitedMs: waited } = await budget.acquire();
		expect(waited).toBeGreaterThan(0);
		expect(waited).toBeLessThanOrEqual(300 + 25);
	});

	it('waits for the announced reset when it comes first', async () => {
		const budget = newBudget({ windowMs: 60_000 });
		release(budget, answer(0, Date.now() + 400), 200);
		const { waitedMs: waited } = await budget.acquire();
		expect(waited).toBeGreaterThan(300);
		expect(waited).toBeLessThanOrEqual(400 + 25);
	});

	it('waits for the announced reset alone when the window length is 0', async () => {
		const budget = newBudget({ windowMs: 0 });
		release(budget, answer(0, Date.now() + 600), 200);
		expect((await budget.acquire()).waitedMs).toBeGreaterThan(300);
	});

	it('sits out the whole Retry-After of a 429, even past the window length', async () => {
		const budget = newBudget({ windowMs: 200 });
		const resetAt = Date.now() + 1_200;
		release(budget, answer(5, resetAt), 200);
		await budget.acquire();
		release(budget, { ...answer(0, resetAt), 'retry-after': '1' }, 429);
		expect((await budget.acquire()).waitedMs).toBeGreaterThan(900);
	});
});

const settle = async () => await new Promise((resolve) => setImmediate(resolve));

describe('before the limit is known', () => {
	it('lets one call go and holds the others until its headers arrive, then sends no more than they allow', async () => {
		const budget = newBudget({ windowMs: 300 });
		await budget.acquire();
		const sentAt: number[] = [];
		const others = [0, 1, 2].map(async () => {
			await budget.acquire();
			sentAt.push(Date.now());
		});
		await settle();
		expect(sentAt).toHaveLength(0);
		// The first answer allows two more calls in this window; the third waits for the next one.
		const answeredAt = Date.now();
		release(budget, answer(2, answeredAt + 300), 200);
		await settle();
		expect(sentAt).toHaveLength(2);
		await Promise.all(others);
		expect(sentAt[2] - answeredAt).toBeGreaterThanOrEqual(250);
	});

	it('lets the next call ask when the first one got no answer at all', async () => {
		const budget = newBudget();
		await budget.acquire();
		const second = budget.acquire();
		budget.cancel();
		await expect(second).resolves.toMatchObject({ waitedMs: 0 });
		expect(budget.snapshot().inFlight).toBe(1);
	});

	it('lets every call go when the service announces no limit', async () => {
		const budget = newBudget();
		await budget.acquire();
		release(budget, {}, 200);
		await Promise.all([budget.acquire(), budget.acquire(), budget.acquire()]);
		expect(budget.snapshot().inFlight).toBe(3);
	});
});

describe('after a 429 ends its window', () => {
	const fortyPerWindow = (remaining: number, resetAt: number) => ({ ...answer(remaining, resetAt), 'x-ratelimit-limit': '40' });
	/** How many of `count` calls waiting on the budget went once the 429's hold had passed and nothing more was answered. */
	async function sentAfterHold(budget: RateBudget, count: number): Promise<{ sent: number; first: Reservation }> {
		let sent = 0;
		let first: Reservation | undefined;
		const waiting = Array.from({ length: count }, () => budget.acquire().then((reservation) => ((first ??= reservation), (sent += 1))));
		await new Promise((resolve) => setTimeout(resolve, 300));
		void Promise.all(waiting);
		return { sent, first: first as Reservation };
	}

	it('a budget that has seen nothing but a 429 sends one call after the hold, not a whole window of them', async () => {
		// A worker joining a spike late: its first call found the window spent by the others.
		const budget = newBudget({ limit: 40, windowMs: 5_000 });
		const refused = await budget.acquire();
		release(budget, fortyPerWindow(0, Date.now() + 150), 429, refused);
		const { sent, first } = await sentAfterHold(budget, 5);
		expect(sent).toBe(1);
		// Its answer tells the new window, where only its own call was counted: more go at once.
		release(budget, fortyPerWindow(39, Date.now() + 5_000), 200, first);
		await settle();
		expect(budget.snapshot().inFlight).toBeGreaterThan(1);
	});

	it('without headers on successful answers, those of calls sent before the 429 do not open the next window: one call asks first', async () => {
		const budget = newBudget({ limit: 40, windowMs: 5_000 });
		release(budget, {}, 200, await budget.acquire());
		const [refused, ...counted] = await Promise.all([budget.acquire(), budget.acquire(), budget.acquire()]);
		release(budget, fortyPerWindow(0, Date.now() + 150), 429, refused);
		for (const reservation of counted) release(budget, {}, 200, reservation);
		const { sent } = await sentAfterHold(budget, 5);
		expect(sent).toBe(1);
	});
});

it('after the window turns, one call asks and the others wait for its answer, which counts every client\'s calls', async () => {
	const budget = newBudget({ windowMs: 100 });
	const twoPerWindow = (remaining: number, resetAt: number) => ({
		'x-ratelimit-limit': '2',
		'x-ratelimit-remaining': String(remaining),
		'x-ratelimit-reset': String(resetAt),
	});
	release(budget, twoPerWindow(0, Date.now() + 100), 200);
	await budget.acquire(); // waits for the turn, then asks
	let second = false;
	const pending = budget.acquire().then(() => (second = true));
	await settle();
	expect(second).toBe(false);
	// Another client took the other call of the new window (announced a second on): the second waits for the window after it.
	release(budget, twoPerWindow(0, Date.now() + 1_100), 200);
	await settle();
	expect(second).toBe(false);
	await pending;
	expect(second).toBe(true);
});

it('after the window turns, answers of calls counted in the ended one do not let more calls ask: one asks at a time', async () => {
	// A service whose clock is behind announces its window's end early: the calls asking after the turn still count
	// in its old window, and each of them beside the one asking would be refused.
	const budget = newBudget({ limit: 10, windowMs: 1_000 });
	const resetAt = Date.now() + 100;
	release(budget, answer(2, resetAt), 200);
	const ended = [await budget.acquire(), await budget.acquire()];
	const asking = await budget.acquire(); // waits for the announced end, then asks
	expect(ended.map((reservation) => reservation.window < asking.window)).toEqual([true, true]);
	let next = false;
	const pending = budget.acquire().then(() => (next = true));
	for (const reservation of ended) release(budget, answer(2, resetAt), 200, reservation);
	await settle();
	expect(next).toBe(false);
	// The asking call's own answer, of the ended window too, lets the next call ask.
	release(budget, answer(1, resetAt), 200, asking);
	await pending;
	expect(next).toBe(true);
});

it('keeps the figures of an answer from the next window that arrives while waiting for the window to end', async () => {
	const budget = newBudget({ windowMs: 1_000 });
	const twoPerWindow = (remaining: number, resetAt: number) => ({
		'x-ratelimit-limit': '2',
		'x-ratelimit-remaining': String(remaining),
		'x-ratelimit-reset': String(resetAt),
	});
	release(budget, twoPerWindow(1, Date.now() + 100), 200);
	await budget.acquire(); // A: the last call of this window, still in flight
	const second = budget.acquire(); // B waits for the window to end
	await settle();
	// A reached the service after its window ended: it was counted in the next one, which has 1 call left.
	release(budget, twoPerWindow(1, Date.now() + 1_100), 200);
	await second;
	const abort = new AbortController();
	let third = false;
	const pending = budget.acquire({ signal: abort.signal }).then(
		() => (third = true),
		() => undefined,
	);
	await settle();
	expect(third).toBe(false);
	abort.abort();
	await pending;
});
