/**
 * A headless Debian Chromium driven by playwright-core (no browser download): the executable comes from
 * PROSPECTING_CHROMIUM, or `chromium` on the PATH, which scripts/provision-browser.sh installs with apt when missing.
 * Screenshots go to docs/screenshots when PROSPECTING_SCREENSHOTS=true (`npm run screenshots`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { chromium, type Browser, type Page } from 'playwright-core';

import { repoRoot } from '../../../scripts/lib/provision';

export function chromiumPath(): string {
	const fromEnv = process.env.PROSPECTING_CHROMIUM;
	if (fromEnv) return fromEnv;
	for (const name of ['chromium', 'chromium-browser']) {
		try {
			const found = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
			if (found) return found;
		} catch {
			// not on the PATH: try the next name
		}
	}
	if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
	throw new Error('Chromium not found: run `bash scripts/provision-browser.sh` (installs Debian\'s chromium with apt)');
}

export async function launchBrowser(): Promise<Browser> {
	return await chromium.launch({
		executablePath: chromiumPath(),
		headless: true,
		// Tests run as root in CI containers, where Chromium's sandbox cannot start.
		args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
	});
}

export const VIEWPORT = { width: 1280, height: 800 };

const screenshotDir = path.join(repoRoot, 'docs', 'screenshots');

/** Saves the README picture `name`.png when screenshots are being refreshed; a no-op otherwise. */
export async function readmeScreenshot(page: Page, name: string): Promise<void> {
	if (process.env.PROSPECTING_SCREENSHOTS !== 'true') return;
	mkdirSync(screenshotDir, { recursive: true });
	await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
}

/** A picture of what the page shows, for a failing step (under .n8n-e2e, not committed). */
export async function debugScreenshot(page: Page, name: string): Promise<string> {
	const file = path.join(repoRoot, '.n8n-e2e', 'screens', `${name}.png`);
	mkdirSync(path.dirname(file), { recursive: true });
	await page.screenshot({ path: file });
	return file;
}
