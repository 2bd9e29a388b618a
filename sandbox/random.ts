/** Seeded pseudo-random numbers (mulberry32): the same seed always yields the same sequence. */
export class SeededRandom {
	private state: number;

	constructor(seed: number) {
		// Mix the seed so that small seeds (1, 2, 3...) give unrelated sequences.
		this.state = (Math.imul((seed | 0) ^ 0x9e3779b9, 0x85ebca6b) ^ 0xc2b2ae35) >>> 0;
	}

	/** Unsigned 32-bit integer. */
	nextUint32(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return (t ^ (t >>> 14)) >>> 0;
	}

	/** Float in [0, 1). */
	next(): number {
		return this.nextUint32() / 4294967296;
	}

	/** Integer in [min, max]. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	/** Hex string of `length` characters. */
	hex(length: number): string {
		let out = '';
		while (out.length < length) out += this.nextUint32().toString(16).padStart(8, '0');
		return out.slice(0, length);
	}
}

/** Identifier made of a prefix, a counter (keeps ids unique and ordered) and random hex. */
export function makeId(prefix: string, counter: number, random: SeededRandom): string {
	return `${prefix}_${counter.toString(16).padStart(8, '0')}${random.hex(12)}`;
}
