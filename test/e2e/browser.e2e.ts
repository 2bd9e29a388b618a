/**
 * The package as people meet it, in a real browser (Debian's Chromium through playwright-core) against a real n8n
 * and the sandbox: the lead capture form filled in and sent like a person would, and the editor (routine picker,
 * credential test, the trigger's "Listen for test event" over the editor's push connection).
 * With PROSPECTING_SCREENSHOTS=true (`npm run screenshots`) the same run refreshes the README's pictures.
 */
import path from 'node:path';

import { selectors, type Browser, type BrowserContext, type Page } from 'playwright-core';

import type { StoredWorkflow } from '../../scripts/lib/n8n-client';
import { demoLinks, demoPageLines, urlOnLine } from '../../scripts/lib/demo-links';
import { DEMO_OWNER, importWorkflows, readWorkflowFiles } from '../../scripts/lib/instance-setup';
import { repoRoot } from '../../scripts/lib/provision';
import { debugScreenshot, launchBrowser, readmeScreenshot, VIEWPORT } from './support/browser';
import { startE2eInstance, type E2eInstance } from './support/instance';

jest.setTimeout(180_000);

let e2e: E2eInstance;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const examples: Record<string, StoredWorkflow> = {};
/** The lines `npm run demo` prints for the editor and the forms, for this instance. */
let pageLines: string[];

beforeAll(async () => {
	e2e = await startE2eInstance();
	const routineId = e2e.sandbox.control.routines()[0].id;
	const imported = await importWorkflows(
		e2e.client,
		readWorkflowFiles(path.join(repoRoot, 'examples')).filter(({ file }) => ['lead-capture-form.json', 'won-lost-message.json'].includes(file)),
		{ credential: e2e.credential, routineId },
		// The trigger workflow stays inactive: the editor's test listen is what is tested with it.
		{ activate: (workflow) => workflow.nodes.some((node) => node.type === 'n8n-nodes-base.formTrigger') },
	);
	for (const { file, workflow } of imported) examples[file] = workflow;
	pageLines = demoPageLines(demoLinks({ editorUrl: e2e.n8n.url, webhookBase: e2e.n8n.url, workflows: imported.map((w) => w.workflow) }));
	// n8n's editor marks its elements with data-test-id.
	selectors.setTestIdAttribute('data-test-id');
	browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
	await browser?.close();
	await e2e?.stop();
});

beforeEach(async () => {
	context = await browser.newContext({ viewport: VIEWPORT });
	context.setDefaultTimeout(30_000);
	page = await context.newPage();
});

afterEach(async () => {
	const state = expect.getState();
	if (page && state.currentTestName) {
		// A picture of the last page of every test, to see what a failing step showed.
		await debugScreenshot(page, state.currentTestName.replace(/[^a-z0-9]+/gi, '-')).catch(() => undefined);
	}
	await context?.close();
});

/** Polls until `probe` returns what `matches` accepts (the editor fills lists asynchronously); returns the last value. */
async function until<T>(probe: () => Promise<T>, matches: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let value = await probe();
	while (!matches(value) && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 200));
		value = await probe();
	}
	return value;
}

const leadsWithEmail = (email: string) => e2e.sandbox.control.leads().filter((l) => l.emails.some((e) => e.value === email));

interface Person {
	name: string;
	company: string;
	email?: string;
	phone?: string;
}

/**
 * Opens the production form at the URL on the demo's "lead form" line, fills it like a person (typing, ticking
 * consent), sends it, waits for the answer page.
 */
async function submitForm(person: Person, options: { screenshot?: string } = {}): Promise<string> {
	await page.goto(urlOnLine(pageLines, 'lead form'));
	await page.getByLabel('Name').fill(person.name);
	await page.getByLabel('Company').fill(person.company);
	if (person.email) await page.getByLabel('E-mail').fill(person.email);
	if (person.phone) await page.getByLabel('Phone').fill(person.phone);
	await page.getByText('I agree to be contacted about this request').click();
	if (options.screenshot) await readmeScreenshot(page, options.screenshot);
	await page.getByRole('button', { name: 'Send' }).click();
	// The answer replaces the form: the completion page's title.
	const title = page.getByText(/Thanks, you're in|We could not register you/);
	await title.waitFor({ state: 'visible', timeout: 60_000 });
	return await page.locator('body').innerText();
}

describe('the lead capture form', () => {
	test("the demo prints the form's address next to the editor's, and that address serves the form", async () => {
		expect(pageLines[0]).toBe(`  n8n editor      ${e2e.n8n.url}`);
		const url = urlOnLine(pageLines, 'lead form');
		expect(url).toBe(`${e2e.n8n.url}/form/prospecting-lead-form`);
		const response = await page.goto(url);
		expect(response?.status()).toBe(200);
		for (const field of ['Name', 'Company', 'E-mail', 'Phone']) await page.getByLabel(field).waitFor();
		await page.getByRole('button', { name: 'Send' }).waitFor();
	});

	test('a person sends the form: the lead is created once, in the routine, and the page says so', async () => {
		const person = { name: 'Ana Souza', company: 'Acme Ltda', email: `ana.${Date.now()}@example.com`, phone: '+55 11 91234-5678' };
		const routineId = e2e.sandbox.control.routines()[0].id;
		const text = await submitForm(person, { screenshot: 'lead-form' });
		expect(text).toContain("Thanks, you're in");
		expect(text).toContain(`${person.name}, a salesperson from our team will contact you soon.`);
		await readmeScreenshot(page, 'lead-form-done');
		const leads = leadsWithEmail(person.email);
		expect(leads).toHaveLength(1);
		expect(leads[0]).toEqual(expect.objectContaining({ name: person.name, company: person.company }));
		expect(leads[0].phones.map((p) => p.value)).toEqual([person.phone]);
		expect(leads[0].routineIds).toEqual([routineId]);

		// The same person again (a double click, a second visit): still one lead, and the same friendly page.
		const again = await submitForm(person);
		expect(again).toContain("Thanks, you're in");
		expect(leadsWithEmail(person.email)).toHaveLength(1);
		expect(leadsWithEmail(person.email)[0].routineIds).toEqual([routineId]);
	});

	test('a person who leaves no contact is told what to fix, not "Error in workflow"', async () => {
		const before = e2e.sandbox.control.leads().length;
		const text = await submitForm({ name: 'Carla Dias', company: 'Dias ME' });
		expect(text).toContain('We could not register you');
		expect(text).toContain('Please give us an e-mail or a phone so that we can reach you');
		expect(text).not.toMatch(/Error in workflow|Problem in node/i);
		expect(e2e.sandbox.control.leads().length).toBe(before);
	});
});

/** A tab signed into the editor as the owner. */
async function signIn(): Promise<{ editor: Page; editorContext: BrowserContext }> {
	const editorContext = await browser.newContext({ viewport: VIEWPORT });
	editorContext.setDefaultTimeout(30_000);
	const editor = await editorContext.newPage();
	await editor.goto(`${e2e.n8n.url}/signin`);
	await editor.getByTestId('signin-form').waitFor();
	await editor.locator('input[type=email]').fill(DEMO_OWNER.email);
	await editor.locator('input[type=password]').fill(DEMO_OWNER.password);
	await editor.getByTestId('form-submit-button').click();
	await editor.waitForURL((url) => !url.pathname.startsWith('/signin'));
	return { editor, editorContext };
}

describe('the editor', () => {
	// One signed-in tab for the editor steps: n8n lets one tab at a time edit a workflow.
	let editor: Page;
	let editorContext: BrowserContext;

	beforeAll(async () => {
		({ editor, editorContext } = await signIn());
	});

	afterAll(async () => {
		if (editor) await debugScreenshot(editor, 'editor-last').catch(() => undefined);
		await editorContext?.close();
	});

	async function openNode(workflow: StoredWorkflow, nodeName: string, screenshot?: string): Promise<void> {
		await editor.goto(`${e2e.n8n.url}/workflow/${workflow.id}`);
		const node = editor.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`);
		await node.waitFor();
		if (screenshot) {
			// The picture waits for the node icons (loaded after the canvas).
			await editor.waitForFunction(
				`[...document.querySelectorAll('[data-test-id="canvas-node"] img')].every((img) => img.complete && img.naturalWidth > 0)`,
			);
			await readmeScreenshot(editor, screenshot);
		}
		await node.dblclick();
		await editor.getByTestId('ndv').waitFor();
	}

	test('the routine picker lists the routines of the service, and typing filters them', async () => {
		await openNode(examples['lead-capture-form.json'], 'Add to routine', 'workflow');
		const locator = editor.getByTestId('resource-locator-routineId');
		const mode = locator.getByTestId('rlc-mode-selector');
		if ((await mode.locator('input').inputValue()) !== 'From list') {
			await mode.click();
			await editor.locator('.el-select-dropdown__item:visible').filter({ hasText: 'From list' }).click();
		}
		await locator.getByTestId('rlc-input').click();
		const items = editor.getByTestId('rlc-item');
		const routines = e2e.sandbox.control.routines().map((r) => r.name);
		const same = (expected: string[]) => (names: string[]) => JSON.stringify(names) === JSON.stringify(expected);
		expect(await until(() => items.allInnerTexts(), same(routines))).toEqual(routines);
		await readmeScreenshot(editor, 'routine-picker');

		const wanted = routines.find((name) => name.startsWith('Out'))!;
		await editor.getByTestId('rlc-search').fill('Out');
		const filtered = routines.filter((name) => name.toLowerCase().includes('out'));
		expect(filtered.length).toBeLessThan(routines.length);
		expect(await until(() => items.allInnerTexts(), same(filtered))).toEqual(filtered);
		await items.filter({ hasText: wanted }).click();
		expect(await until(() => locator.getByTestId('rlc-input').inputValue(), (value) => value === wanted)).toBe(wanted);
		await editor.keyboard.press('Escape');
	});

	test("the credential dialog's test says OK for the demo key and clearly refuses a wrong one", async () => {
		await openNode(examples['lead-capture-form.json'], 'Create lead');
		await editor.getByTestId('credential-edit-button').click();
		const dialog = editor.getByTestId('credential-edit-dialog');
		await dialog.getByTestId('credentials-config-container-test-success').waitFor();
		expect(await dialog.innerText()).toContain('Connection tested successfully');
		await dialog.getByRole('button', { name: 'Retry' }).click();
		await dialog.getByTestId('credentials-config-container-test-success').waitFor();
		await editor.keyboard.press('Escape');
		await dialog.waitFor({ state: 'hidden' });
		// Escape may close the node's panel with the dialog: open it again to pick the other credential.
		if (!(await editor.getByTestId('ndv').isVisible())) {
			await editor.locator('[data-test-id="canvas-node"][data-node-name="Create lead"]').dblclick();
			await editor.getByTestId('ndv').waitFor();
		}

		await editor.getByTestId('node-credentials-select').click();
		await editor.locator('.el-select-dropdown__item:visible').filter({ hasText: e2e.wrongCredential.name }).click();
		await editor.getByTestId('credential-edit-button').click();
		await dialog.getByText('Couldn’t connect with these settings').waitFor();
		await dialog.getByText('More details').click();
		// n8n 1.x shows its own generic text for a 401 from a credential test (README, Compatibility).
		const refusal = e2e.runtime.n8nVersion.startsWith('1.')
			? 'Authorization failed - please check your credentials'
			: 'The API key was refused (401). Check the API key in this credential.';
		await dialog.getByText(refusal).waitFor();
		expect(await dialog.innerText()).not.toContain(e2e.wrongApiKey);
		await editor.keyboard.press('Escape');
	});
});

describe('the trigger in the editor', () => {
	let editor: Page;
	let editorContext: BrowserContext;

	beforeAll(async () => {
		({ editor, editorContext } = await signIn());
	});

	afterAll(async () => {
		if (editor) await debugScreenshot(editor, 'trigger-last').catch(() => undefined);
		await editorContext?.close();
	});

	const testWebhooks = () => e2e.sandbox.control.webhooks().filter((w) => w.url.startsWith(`${e2e.n8n.url}/webhook-test/`));

	test('"Listen for test event" registers a test webhook, shows a WON prospection in the output, and stopping removes the webhook', async () => {
		const workflow = examples['won-lost-message.json'];
		await editor.goto(`${e2e.n8n.url}/workflow/${workflow.id}`);
		const node = editor.locator('[data-test-id="canvas-node"][data-node-name="Prospection won or lost"]');
		await node.waitFor();
		await node.dblclick();
		const ndv = editor.getByTestId('ndv');
		await ndv.waitFor();
		expect(testWebhooks()).toHaveLength(0);

		// Listening: n8n creates the webhook on the service with its test URL, and waits for the push of the event.
		// "Execute step" on a trigger is n8n 2.x's "Listen for test event"; the listening panel then offers "Stop Listening".
		await ndv.getByTestId('node-execute-button').click();
		await ndv.getByTestId('trigger-listening').waitFor();
		expect(await until(async () => testWebhooks().length, (n) => n === 1)).toBe(1);
		const prospection = e2e.sandbox.control.prospections().find((p) => p.status !== 'WON' && p.status !== 'LOST')!;
		await e2e.sandbox.control.setProspectionStatus(prospection.id, 'WON');
		const output = ndv.getByTestId('output-panel');
		await output.getByText(prospection.id).first().waitFor({ timeout: 60_000 });
		await readmeScreenshot(editor, 'trigger-event');
		// One event is what a test listen waits for: n8n then removes its test webhook from the service.
		expect(await until(async () => testWebhooks().length, (n) => n === 0)).toBe(0);

		// Listening again and stopping without an event also removes it.
		await ndv.getByTestId('node-execute-button').click();
		await ndv.getByTestId('trigger-listening').waitFor();
		expect(await until(async () => testWebhooks().length, (n) => n === 1)).toBe(1);
		await ndv.getByTestId('trigger-listening').getByRole('button', { name: /stop listening/i }).click();
		expect(await until(async () => testWebhooks().length, (n) => n === 0)).toBe(0);
	});
});
