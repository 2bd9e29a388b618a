// Lints the compiled package (what npm pack ships and n8n loads) with the rules of n8n's
// community-node verification scanner, which reads the published JavaScript, not our TypeScript.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

export default [
	{
		files: ['dist/**/*.js', 'package.json'],
		...n8nCommunityNodesPlugin.configs.recommended,
		// Registered (no rule on) so that the source's single-line exceptions, kept in the compiled code, resolve.
		plugins: { ...n8nCommunityNodesPlugin.configs.recommended.plugins, 'n8n-nodes-base': n8nNodesBase },
		linterOptions: { reportUnusedDisableDirectives: 'off' },
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
			sourceType: 'commonjs',
		},
	},
];
