// Lints the package's source with both rule sets n8n applies to community nodes:
// eslint-plugin-n8n-nodes-base (node and credential conventions) and
// @n8n/eslint-plugin-community-nodes (what n8n's verification scanner enforces).
import eslint from '@eslint/js';
import { globalIgnores } from 'eslint/config';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';

const packageFiles = ['credentials/**/*.ts', 'nodes/**/*.ts', 'package.json'];

export default tseslint.config(
	globalIgnores(['dist', 'node_modules', 'coverage', '**/*.js', '**/*.mjs']),
	{
		files: ['**/*.ts'],
		extends: [eslint.configs.recommended, tseslint.configs.recommended],
		rules: {
			'prefer-spread': 'off',
		},
	},
	{
		// Tests, the sandbox, the dev area, scripts and benchmarks are not shipped: only the general TypeScript rules apply.
		files: ['test/**/*.ts', 'sandbox/**/*.ts', 'dev/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-require-imports': 'off',
			'@typescript-eslint/no-non-null-assertion': 'off',
		},
	},
	{
		// Layers (docs/dev/architecture.md): the polling trigger and the shared rules stand on shared/, transport/ and
		// helpers/ alone, so that a change to the action node cannot change what a trigger does.
		files: ['nodes/Prospecting/polling/**/*.ts', 'nodes/Prospecting/shared/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{ patterns: [{ group: ['**/actions/**', '**/trigger/**', '**/methods/**'], message: 'polling/ and shared/ use only shared/, transport/ and helpers/.' }] },
			],
		},
	},
	{
		// The HTTP loop and its rate rules stand on helpers/ alone; helpers/ on nothing of the package.
		files: ['nodes/Prospecting/transport/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{ patterns: [{ group: ['**/actions/**', '**/trigger/**', '**/methods/**', '**/polling/**', '**/shared/**'], message: 'transport/ uses only helpers/.' }] },
			],
		},
	},
	{
		files: ['nodes/Prospecting/helpers/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{ patterns: [{ group: ['../**'], message: 'helpers/ uses nothing else of the package.' }] },
			],
		},
	},
	{
		// Benchmarks and scripts share helpers through dev/, never through the test suites.
		files: ['bench/**/*.ts', 'scripts/**/*.ts', 'dev/**/*.ts', 'sandbox/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{ patterns: [{ group: ['**/test/**', '../test', '../../test'], message: 'Shared helpers live in dev/.' }] },
			],
		},
	},
	{
		files: packageFiles,
		...n8nCommunityNodesPlugin.configs.recommended,
	},
	{
		files: ['package.json'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// The documentation URL points at this package's README, not at n8n's docs site.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Same exceptions as n8n's own community-node lint config (@n8n/node-cli): these rules predate
			// NodeConnectionTypes and typeOptions.maxValue on page sizes.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
);
