/** The sandbox a test file runs against, set up the same way in every file. */
import { forgetWrites } from '../../nodes/Prospecting/actions/writeMemory';
import { resetBudgets } from '../../nodes/Prospecting/transport/rateBudget';
import { forgetServiceClocks } from '../../nodes/Prospecting/transport/serviceClock';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox';

/** What a credential needs to reach the sandbox (a type, so it passes where n8n takes credential data). */
export type Connection = { baseUrl: string; apiKey: string };

/**
 * One sandbox for the test file: started before its tests and stopped after them; before each test its data is the
 * seeded data again and what this process remembers (rate budgets, the service's clock, writes) is dropped, so every
 * test starts as a new user would.
 * `connection` reaches it with `apiKey` (the sandbox's first key by default). Both are read inside tests: the sandbox
 * exists once the file's tests begin.
 */
export function useSandbox(options: SandboxOptions = {}, apiKey?: string): { sandbox: RunningSandbox; connection: Connection } {
	let running: RunningSandbox | undefined;
	beforeAll(async () => {
		running = await startSandbox(options);
	});
	afterAll(async () => await running?.stop());
	beforeEach(() => {
		started().control.reset();
		resetBudgets();
		forgetServiceClocks();
		forgetWrites();
	});
	const started = (): RunningSandbox => {
		if (!running) throw new Error('The sandbox starts before the first test of the file; read it inside a test.');
		return running;
	};
	const sandbox: RunningSandbox = {
		get url() {
			return started().url;
		},
		get apiKey() {
			return started().apiKey;
		},
		get control() {
			return started().control;
		},
		stop: async () => await started().stop(),
	};
	const connection: Connection = {
		get baseUrl() {
			return started().url;
		},
		get apiKey() {
			return apiKey ?? started().apiKey;
		},
	};
	return { sandbox, connection };
}
