/** The part of autocannon 9's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
	namespace autocannon {
		interface Options {
			url: string;
			connections?: number;
			duration?: number;
			timeout?: number;
			requests?: Array<Record<string, unknown>>;
		}
		interface Histogram {
			average: number;
			p50: number;
			p99: number;
			max: number;
			min: number;
			total: number;
		}
		interface Result {
			requests: Histogram;
			latency: Histogram;
			'2xx': number;
			non2xx: number;
			errors: number;
			timeouts: number;
		}
	}
	function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
	export = autocannon;
}
