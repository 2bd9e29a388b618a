/**
 * The package as people meet it, in a real browser (Debian's Chromium through playwright-core) against a real n8n
 * and the sandbox: the lead capture form filled in and sent like a person would, and the editor (routine picker,
 * credential test, the trigger's "Listen for test event" over the editor's push connection).
 * With PROSPECTING_SCREENSHOTS=true (`npm run screenshots`) the same run refreshes the README's pictures.
 */
import path from 'node:path';

import { selectors, type Browser, type BrowserContext, type Page } from 'playwright-core';

import type { StoredWorkflow, WorkflowJson } from '../../scripts/lib/n8n-client';
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

const THANKS = 'Thanks! A salesperson from our team will contact you soon.';

/**
 * Opens the production form at the URL on the demo's "lead form" line, fills it like a person (typing, ticking
 * consent), sends it, waits for the answer page (the form thanks on receipt, before the lead is written).
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
	// The answer replaces the form: the fixed thank-you text.
	await page.getByText(THANKS).waitFor({ state: 'visible', timeout: 60_000 });
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

	test('a person sends the form: thanked at once, the lead is created once, in the routine', async () => {
		const person = { name: 'Ana Souza', company: 'Acme Ltda', email: `ana.${Date.now()}@example.com`, phone: '+55 11 91234-5678' };
		const routineId = e2e.sandbox.control.routines()[0].id;
		const text = await submitForm(person, { screenshot: 'lead-form' });
		expect(text).toContain(THANKS);
		// Nothing of the run reaches the page: not the name the service stored, not an error.
		expect(text).not.toContain(person.name);
		await readmeScreenshot(page, 'lead-form-done');
		const leads = await until(() => Promise.resolve(leadsWithEmail(person.email)), (found) => found[0]?.routineIds.length === 1);
		expect(leads).toHaveLength(1);
		expect(leads[0]).toEqual(expect.objectContaining({ name: person.name, company: person.company }));
		expect(leads[0].phones.map((p) => p.value)).toEqual([person.phone]);
		expect(leads[0].routineIds).toEqual([routineId]);

		// The same person again (a double click, a second visit): still one lead, and the same page.
		const runs = (await e2e.client.listExecutions(examples['lead-capture-form.json'].id)).length;
		const again = await submitForm(person);
		expect(again).toContain(THANKS);
		await e2e.client.waitForExecutions(examples['lead-capture-form.json'].id, runs + 1);
		expect(leadsWithEmail(person.email)).toHaveLength(1);
		expect(leadsWithEmail(person.email)[0].routineIds).toEqual([routineId]);
	});

	test('a person who leaves out the e-mail is asked for it by the form, and nothing is sent', async () => {
		const runs = (await e2e.client.listExecutions(examples['lead-capture-form.json'].id)).length;
		await page.goto(urlOnLine(pageLines, 'lead form'));
		await page.getByLabel('Name').fill('Carla Dias');
		await page.getByLabel('Company').fill('Dias ME');
		await page.getByLabel('Phone').fill('+55 11 95555-0000');
		await page.getByText('I agree to be contacted about this request').click();
		await page.getByRole('button', { name: 'Send' }).click();
		// n8n's form shows the field's error under it (every field has one, shown once its check fails).
		await page.locator('p.error-show').filter({ hasText: 'This field is required' }).waitFor({ state: 'visible' });
		expect(await page.locator('body').innerText()).not.toContain(THANKS);
		expect((await e2e.client.listExecutions(examples['lead-capture-form.json'].id)).length).toBe(runs);
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

/** A workflow with one version-2 node per record picker, each picker empty, as a user adds them. */
function pickersWorkflow(): WorkflowJson {
	const credentials = { prospectingApi: { id: e2e.credential.id, name: e2e.credential.name } };
	const empty = { __rl: true, mode: 'list', value: '' };
	const prospecting = (name: string, y: number, parameters: Record<string, unknown>) => ({
		id: `picker-${y}`,
		name,
		type: 'n8n-nodes-prospecting.prospecting',
		typeVersion: 2,
		position: [300, y],
		parameters,
		credentials,
	});
	return {
		name: 'Prospecting: record pickers',
		nodes: [
			{ id: 'picker-start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 200], parameters: {} },
			// "Always Send": the editor's manual runs would otherwise be dry runs (the credential's default).
			prospecting('Add lead to routine', 0, { resource: 'routine', operation: 'addLead', routineId: empty, leadId: empty, dryRun: 'never' }),
			prospecting('Get activities', 200, { resource: 'prospection', operation: 'getActivities', prospectionId: empty, returnAll: true }),
			prospecting('Delete webhook', 400, { resource: 'webhook', operation: 'delete', webhookId: empty, dryRun: 'never' }),
		],
		connections: {
			Start: {
				main: [
					['Add lead to routine', 'Get activities', 'Delete webhook'].map((node) => ({ node, type: 'main', index: 0 })),
				],
			},
		},
	};
}

describe('the record pickers in the editor', () => {
	let editor: Page;
	let editorContext: BrowserContext;
	let workflow: StoredWorkflow;

	beforeAll(async () => {
		workflow = await e2e.client.createWorkflow(pickersWorkflow());
		({ editor, editorContext } = await signIn());
	});

	afterAll(async () => {
		if (editor) await debugScreenshot(editor, 'pickers-last').catch(() => undefined);
		await editorContext?.close();
	});

	async function openPickerNode(nodeName: string): Promise<void> {
		await editor.goto(`${e2e.n8n.url}/workflow/${workflow.id}`);
		const node = editor.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`);
		await node.waitFor();
		await node.dblclick();
		await editor.getByTestId('ndv').waitFor();
	}

	/** Opens the picker's list, types `search`, waits until the listed names are as `expected`, and picks `wanted` (default: the first). */
	async function pick(parameter: string, search: string, expected: (names: string[]) => boolean, wanted?: string): Promise<string[]> {
		const locator = editor.getByTestId(`resource-locator-${parameter}`);
		await locator.getByTestId('rlc-input').click();
		// n8n 1.x keeps the lists of pickers used before in the page, hidden.
		const items = editor.locator('[data-test-id="rlc-item"]:visible');
		await until(() => items.count(), (count) => count > 0);
		await editor.locator('[data-test-id="rlc-search"]:visible').fill(search);
		const names = await until(() => items.allInnerTexts(), expected);
		expect(expected(names)).toBe(true);
		const choice = wanted ?? names[0];
		await items.filter({ hasText: choice }).first().click();
		expect(await until(() => locator.getByTestId('rlc-input').inputValue(), (value) => value === choice)).toBe(choice);
		return names;
	}

	async function runNodeInPanel(): Promise<void> {
		await editor.getByTestId('ndv').getByTestId('node-execute-button').click();
	}

	test('Routine → Add Lead: the lead is searched by email and the routine by name, picked, and the run adds the lead', async () => {
		const routine = e2e.sandbox.control.routines()[1];
		const lead = e2e.sandbox.control.leads().find((l) => l.emails.length > 0 && !l.routineIds.includes(routine.id))!;
		const email = lead.emails[0].value;
		const leadName = `${lead.name} — ${email} (${lead.company})`;
		await openPickerNode('Add lead to routine');
		await pick('routineId', routine.name, (names) => names.includes(routine.name) && names.every((n) => n.toLowerCase().includes(routine.name.toLowerCase())), routine.name);
		const leads = await pick('leadId', email, (names) => names.length === 1 && names[0] === leadName, leadName);
		expect(leads).toEqual([leadName]);
		await runNodeInPanel();
		expect(await until(async () => e2e.sandbox.control.leads().find((l) => l.id === lead.id)!.routineIds, (ids) => ids.includes(routine.id))).toContain(routine.id);
		await editor.getByTestId('output-panel').getByText(lead.id).first().waitFor({ timeout: 60_000 });
		await editor.keyboard.press('Escape');
	});

	test('Prospection → Get Activities: prospections are searched by lead, picked, and the run lists its activities', async () => {
		// The list shows the newest page first; the search looks within it. A lead whose prospections all have
		// activities (those started by the form tests have none yet), so that any of them shows some.
		const newest = [...e2e.sandbox.control.prospections()].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, 100);
		const activitiesOf = async (id: string) => {
			const response = await fetch(`${e2e.sandbox.url}/api/v1/prospections/${id}/activities?apiKey=${e2e.sandbox.apiKey}`);
			return ((await response.json()) as { data: Array<{ id: string }> }).data;
		};
		let prospection = newest[0];
		for (const candidate of newest) {
			const ofCandidateLead = newest.filter((p) => p.leadId === candidate.leadId);
			const counts = await Promise.all(ofCandidateLead.map(async (p) => (await activitiesOf(p.id)).length));
			if (counts.every((count) => count > 0)) {
				prospection = candidate;
				break;
			}
		}
		const ofLead = newest.filter((p) => p.leadId === prospection.leadId);
		await openPickerNode('Get activities');
		const names = await pick(
			'prospectionId',
			prospection.leadId,
			(found) => found.length === ofLead.length && found.every((name) => name.startsWith(`Lead ${prospection.leadId} · `)),
		);
		expect(names).toHaveLength(ofLead.length);
		const requestsBefore = e2e.sandbox.control.requests().length;
		await runNodeInPanel();
		// The run reads the activities of the picked prospection, one of the lead's, and shows them.
		const activityReads = () =>
			e2e.sandbox.control.requests().slice(requestsBefore).filter((request) => /^\/api\/v1\/prospections\/[^/]+\/activities$/.test(request.path) && request.status === 200);
		const [read] = await until(async () => activityReads(), (reads) => reads.length > 0);
		expect(read).toBeDefined();
		const pickedId = read.path.split('/')[4];
		expect(ofLead.map((p) => p.id)).toContain(pickedId);
		const activities = await activitiesOf(pickedId);
		await editor.getByTestId('output-panel').getByText(activities[0].id).first().waitFor({ timeout: 60_000 });
		await editor.keyboard.press('Escape');
	});

	test('Webhook → Delete: webhooks are searched by name, picked, and the run deletes that one only', async () => {
		const create = async (name: string) => {
			const response = await fetch(`${e2e.sandbox.url}/api/v1/webhooks?apiKey=${e2e.sandbox.apiKey}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ name, url: `https://example.com/${name}`, events: ['prospection.won'] }),
			});
			return (await response.json()) as { id: string; name: string; url: string };
		};
		const keep = await create('crm-sync');
		const remove = await create('old-sheet');
		const label = `${remove.name} — ${remove.url}`;
		await openPickerNode('Delete webhook');
		await pick('webhookId', 'sheet', (names) => names.length === 1 && names[0] === label, label);
		await runNodeInPanel();
		expect(await until(async () => e2e.sandbox.control.webhooks().map((w) => w.id), (ids) => !ids.includes(remove.id))).not.toContain(remove.id);
		expect(e2e.sandbox.control.webhooks().map((w) => w.id)).toContain(keep.id);
		await editor.getByTestId('output-panel').getByText(remove.id).first().waitFor({ timeout: 60_000 });
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
