/** The shared rate budget's bookkeeping when answers come back in another order than the service counted them. */
import { RateBudget } from '../../nodes/Prospecting/transport/rateLimiter';

const answer = (remaining: number, resetAt: number) => ({
	'x-ratelimit-limit': '200',
	'x-ratelimit-remaining': String(remaining),
	'x-ratelimit-reset': String(resetAt),
});

it('ends on the exact remaining count once nothing is in flight, whatever the order of the answers', async () => {
	const budget = new RateBudget();
	const resetAt = Date.now() + 60_000;
	budget.release(answer(200 - 1, resetAt), 200);
	// Two calls reserved A then B; the service counts B first (197 left), then A (196 left).
	await budget.acquire();
	await budget.acquire();
	budget.release(answer(196, resetAt), 200); // A's answer arrives first, B still in flight
	expect(budget.state.remaining).toBe(195);
	budget.release(answer(197, resetAt), 200); // B's answer, nothing in flight any more
	expect(budget.state.remaining).toBe(196);
});

it('keeps the lower count while calls are in flight, so other clients of the key are not overrun', async () => {
	const budget = new RateBudget();
	const resetAt = Date.now() + 60_000;
	budget.release(answer(150, resetAt), 200);
	await budget.acquire();
	await budget.acquire();
	// Another client spent 50 meanwhile: the first answer says 99 with one call still out.
	budget.release(answer(99, resetAt), 200);
	expect(budget.state.remaining).toBe(98);
	budget.release(answer(98, resetAt), 200);
	expect(budget.state.remaining).toBe(98);
});

it('ignores the figures of an answer from an earlier window', async () => {
	const budget = new RateBudget();
	const now = Date.now();
	budget.release(answer(10, now + 60_000), 200);
	budget.release(answer(0, now - 1_000), 200);
	expect(budget.state.remaining).toBe(10);
});

it('gives back a slot counted twice even while other calls stay in flight (two executions sharing a key)', async () => {
	const budget = new RateBudget();
	const resetAt = Date.now() + 60_000;
	budget.release(answer(100, resetAt), 200);
	await budget.acquire(); // A
	await budget.acquire(); // B
	await budget.acquire(); // C
	// The service counts A (99), B (98), C (97); B's answer arrives first.
	budget.release(answer(98, resetAt), 200);
	expect(budget.state.remaining).toBe(96);
	await budget.acquire(); // D, reserved before A's answer arrives
	budget.release(answer(99, resetAt), 200); // A: C and D still in flight
	// At most C and D were counted after the lowest figure (98): 96 are surely left, not 95.
	expect(budget.state.remaining).toBe(96);
});
