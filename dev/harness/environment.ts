/**
 * Process settings n8n-core reads when its services are first built. Imported before anything that
 * touches n8n-core, so every jest worker gets its own throw-away n8n folder (InstanceSettings writes
 * a config file with an encryption key there) and never reads or writes the developer's ~/.n8n.
 */
import 'reflect-metadata';

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const userFolder = mkdtempSync(path.join(tmpdir(), 'n8n-nodes-prospecting-test-'));

process.env.N8N_USER_FOLDER = userFolder;
process.env.N8N_ENCRYPTION_KEY ??= 'test-only-encryption-key';
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS = 'false';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
process.env.N8N_RUNNERS_ENABLED ??= 'false';
process.env.N8N_BLOCK_ENV_ACCESS_IN_NODE ??= 'true';

process.once('exit', () => {
	try {
		rmSync(userFolder, { recursive: true, force: true });
	} catch {
		// A leftover temp folder is harmless; never fail a test run over it.
	}
});

export const n8nUserFolder = userFolder;
