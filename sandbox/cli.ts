/** `npm run sandbox -- [flags]`: starts the sandbox and keeps it running until SIGINT/SIGTERM. */
import { CONTROL_ENDPOINTS } from './control';
import { DEFAULT_DATASET } from './dataset';
import { DEMO_API_KEY, startSandbox } from './server';
import type { ResetFormat, SandboxOptions } from './types';

const USAGE = `Usage: npm run sandbox -- [flags]
  --port N                 port (default 4010; 0 picks a free one)
  --host H                 address to listen on (default 127.0.0.1)
  --seed N                 dataset seed (default 1)
  --api-key K              accepted key (repeatable; default: the demo key)
  --window-seconds N       rate-limit window (default 60)
  --read-limit N           reads (GET, HEAD) per window and key (default 200)
  --write-limit N          writes (POST, PUT, PATCH, DELETE) per window and key (default 100)
  --no-rate-limit          never answer 429 (headers are still sent)
  --reset-format F         X-RateLimit-Reset as epoch-seconds (default), epoch-ms or delta-seconds
  --clock-windows          windows aligned to the clock (default: a window opens at a key's first call)
  --rate-headers-on-429    X-RateLimit-* on 429 answers only, as the spec documents them (default: every answer)
  --signature-header H     header of the webhook signature (default x-signature)
  --delivery-retries N     retries of a failed webhook delivery (default 3)
  --delivery-delay-ms N    first retry delay, doubled each time (default 1000)
  --leads N --routines N --prospections N --activities N --custom-fields N --threads N
                           dataset sizes (defaults ${Object.entries(DEFAULT_DATASET).map(([k, v]) => `${k}=${v}`).join(', ')})
  --log                    print one line per request (the key is shown as ***)
  --help`;

function fail(message: string): never {
	process.stderr.write(`${message}\n\n${USAGE}\n`);
	process.exit(2);
}

function parseArgs(argv: string[]): SandboxOptions {
	const options: SandboxOptions = { port: 4010 };
	const dataset: NonNullable<SandboxOptions['dataset']> = {};
	const keys: string[] = [];
	const delivery: NonNullable<SandboxOptions['delivery']> = {};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
		const value = (): string => {
			const v = inline ?? argv[++i];
			if (v === undefined) fail(`Missing value for ${flag}`);
			return v;
		};
		const integer = (min = 0): number => {
			const raw = value();
			const n = Number(raw);
			if (!Number.isInteger(n) || n < min) fail(`${flag} expects an integer >= ${min}, got '${raw}'`);
			return n;
		};
		switch (flag) {
			case '--help':
			case '-h':
				process.stdout.write(`${USAGE}\n`);
				process.exit(0);
			// eslint-disable-next-line no-fallthrough -- process.exit above never returns
			case '--port': options.port = integer(0); break;
			case '--host': options.host = value(); break;
			case '--seed': options.seed = integer(0); break;
			case '--api-key': keys.push(value()); break;
			case '--window-seconds': options.windowSeconds = integer(1); break;
			case '--read-limit': options.readLimit = integer(1); break;
			case '--write-limit': options.writeLimit = integer(1); break;
			case '--no-rate-limit': options.rateLimit = false; break;
			case '--reset-format': {
				const format = value();
				if (!['epoch-seconds', 'epoch-ms', 'delta-seconds'].includes(format)) fail(`Unknown reset format '${format}'`);
				options.rateLimitResetFormat = format as ResetFormat;
				break;
			}
			case '--clock-windows': options.clockWindows = true; break;
			case '--rate-headers-on-429': options.rateHeaders = 'on-429'; break;
			case '--signature-header': options.signatureHeader = value(); break;
			case '--delivery-retries': delivery.maxRetries = integer(0); break;
			case '--delivery-delay-ms': delivery.baseDelayMs = integer(0); break;
			case '--leads': dataset.leads = integer(0); break;
			case '--routines': dataset.routines = integer(0); break;
			case '--prospections': dataset.prospections = integer(0); break;
			case '--activities': dataset.activitiesPerProspection = integer(0); break;
			case '--custom-fields': dataset.customFields = integer(0); break;
			case '--threads': dataset.threads = integer(0); break;
			case '--log': options.log = (line) => console.log(`${new Date().toISOString()} ${line}`); break;
			default: fail(`Unknown flag ${arg}`);
		}
	}
	if (keys.length) options.apiKeys = keys;
	if (Object.keys(dataset).length) options.dataset = dataset;
	if (Object.keys(delivery).length) options.delivery = delivery;
	return options;
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const started = Date.now();
	const sandbox = await startSandbox(options);
	const usesDemoKey = !options.apiKeys || options.apiKeys.includes(DEMO_API_KEY);
	const lines = [
		`Prospecting sandbox listening on ${sandbox.url} (ready in ${Date.now() - started} ms)`,
		`  API:      ${sandbox.url}/api/v1   (credential Base URL: ${sandbox.url})`,
		usesDemoKey
			? `  Demo key: ${DEMO_API_KEY}   (sandbox-only; send it as ?apiKey=...)`
			: `  Keys:     ${options.apiKeys!.length} custom key(s) accepted (not printed)`,
		`  Rate limit: ${options.rateLimit === false ? 'off' : `${options.readLimit ?? 200} reads / ${options.writeLimit ?? 100} writes per ${options.windowSeconds ?? 60} s per key`}`,
		`  Control (no key needed):`,
		...CONTROL_ENDPOINTS.map((line) => `    ${line}`),
		`Ctrl+C stops it.`,
	];
	console.log(lines.join('\n'));
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal} received, stopping the sandbox...`);
		sandbox.stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: Error) => {
	console.error(`Sandbox failed to start: ${error.message}`);
	process.exit(1);
});
