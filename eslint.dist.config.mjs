// Lints the compiled package (what npm pack ships and n8n loads) with the rules of n8n's
// community-node verification scanner, which reads the published JavaScript, not our TypeScript.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';

export default [
	{
		files: ['dist/**/*.js', 'package.json'],
		...n8nCommunityNodesPlugin.configs.recommended,
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
			sourceType: 'commonjs',
		},
	},
];
