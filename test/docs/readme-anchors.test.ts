import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** GitHub's and npm's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\w\- ]/g, '')
		.replace(/ /g, '-');
}

const anchors = new Set(
	readme
		.replace(/```[\s\S]*?```/g, '')
		.split('\n')
		.filter((line) => /^#{1,6} /.test(line))
		.map((line) => anchorOf(line.replace(/^#+ /, ''))),
);

function linkedAnchors(): Array<{ from: string; anchor: string }> {
	const sources = [
		'credentials/ProspectingApi.credentials.ts',
		...readdirSync(path.join(root, 'nodes/Prospecting'))
			.filter((name) => name.endsWith('.node.json'))
			.map((name) => `nodes/Prospecting/${name}`),
	];
	return sources.flatMap((from) =>
		[...readFileSync(path.join(root, from), 'utf8').matchAll(/n8n-nodes-prospecting#([\w-]+)/g)].map((match) => ({
			from,
			anchor: match[1],
		})),
	);
}

describe('README anchors the nodes and the credential link to', () => {
	it('every documentation link of the nodes and the credential leads to a README heading', () => {
		const links = linkedAnchors();
		expect(links.map((link) => link.anchor)).toEqual(expect.arrayContaining(['credentials', 'operations']));
		expect(links.filter((link) => !anchors.has(link.anchor))).toEqual([]);
	});

	it('the README links to docs pages and other files with absolute GitHub addresses, as npm shows it alone', () => {
		const relative = [...readme.matchAll(/\]\(([^)#][^)]*)\)/g)]
			.map((match) => match[1])
			.filter((target) => !/^https:\/\//.test(target));
		expect(relative).toEqual([]);
	});
});
