import { rateLimitFloor, untilIntoWindowMs } from '../../bench/lib/floor';

describe('rate-limit floor of the benchmarks', () => {
	it('counts the windows that must pass and every request of a 600-page walk', () => {
		const floor = rateLimitFloor({ requests: 600, limit: 200, windowMs: 5000, perRequestMs: 2 });
		expect(floor.windowsThatMustPass).toBe(2);
		expect(floor.requestsTimeMs).toBe(1200);
		expect(floor.floorMs).toBe(2 * 5000 + 1200);
		// Only the last window's 200 requests add to the two windows that pass.
		expect(floor.strictFloorMs).toBe(2 * 5000 + 200 * 2);
	});

	it('needs no window to pass while the work fits in one budget', () => {
		expect(rateLimitFloor({ requests: 200, limit: 200, windowMs: 5000, perRequestMs: 1 }).windowsThatMustPass).toBe(0);
		expect(rateLimitFloor({ requests: 201, limit: 200, windowMs: 5000, perRequestMs: 1 }).windowsThatMustPass).toBe(1);
		expect(rateLimitFloor({ requests: 0, limit: 100, windowMs: 5000, perRequestMs: 1 }).floorMs).toBe(0);
	});

	it('never lets a window be shorter than the requests sent in it', () => {
		const floor = rateLimitFloor({ requests: 500, limit: 100, windowMs: 100, perRequestMs: 2 });
		expect(floor.windowsThatMustPass).toBe(4);
		expect(floor.strictFloorMs).toBe(4 * 200 + 100 * 2);
	});

	it('counts only what is left of the first window when windows are aligned to the clock', () => {
		// 400 writes at 40 per 5 s window, begun 3.2 s into a clock window: 1.8 s, then nine full windows.
		const floor = rateLimitFloor({ requests: 400, limit: 40, windowMs: 5000, perRequestMs: 2, firstWindowLeftMs: 1800 });
		expect(floor.windowsThatMustPass).toBe(9);
		expect(floor.floorMs).toBe(1800 + 8 * 5000 + 400 * 2);
		expect(floor.strictFloorMs).toBe(1800 + 8 * 5000 + 40 * 2);
		// A whole first window left is the floor without a phase.
		const whole = rateLimitFloor({ requests: 400, limit: 40, windowMs: 5000, perRequestMs: 2, firstWindowLeftMs: 5000 });
		expect(whole).toEqual(rateLimitFloor({ requests: 400, limit: 40, windowMs: 5000, perRequestMs: 2 }));
	});

	it('ignores the phase while the work fits in one budget', () => {
		const floor = rateLimitFloor({ requests: 40, limit: 40, windowMs: 5000, perRequestMs: 2, firstWindowLeftMs: 100 });
		expect(floor.floorMs).toBe(80);
		expect(floor.strictFloorMs).toBe(80);
	});

	it('refuses inputs that make no floor', () => {
		expect(() => rateLimitFloor({ requests: 10, limit: 5, windowMs: 5000, perRequestMs: 1, firstWindowLeftMs: 0 })).toThrow('firstWindowLeftMs');
		expect(() => rateLimitFloor({ requests: 10, limit: 5, windowMs: 5000, perRequestMs: 1, firstWindowLeftMs: 5001 })).toThrow('firstWindowLeftMs');
		expect(() => rateLimitFloor({ requests: 10, limit: 0, windowMs: 5000, perRequestMs: 1 })).toThrow('limit');
		expect(() => rateLimitFloor({ requests: 10, limit: 5, windowMs: 0, perRequestMs: 1 })).toThrow('windowMs');
		expect(() => rateLimitFloor({ requests: -1, limit: 5, windowMs: 10, perRequestMs: 1 })).toThrow('requests');
	});
});

describe('where a spike begins in a clock window', () => {
	it('waits until half-way into the current window, or into the next one once past it, never longer than a window', () => {
		expect(untilIntoWindowMs(10_000, 5_000, 0.5)).toBe(2_500);
		expect(untilIntoWindowMs(12_400, 5_000, 0.5)).toBe(100);
		expect(untilIntoWindowMs(12_500, 5_000, 0.5)).toBe(0);
		expect(untilIntoWindowMs(12_600, 5_000, 0.5)).toBe(4_900);
	});
});
