/**
 * The documents cite tests as `dir/file › test name` (the file under test/, without `.test.ts`); further tests of the
 * same file follow as `; › another name`. Each cited name must still be a test of that file: its title, or a
 * describe title and a test title joined by a space.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');
const documents = [
	'README.md',
	'CONTRIBUTING.md',
	'BENCHMARKS.md',
	...['docs', 'docs/dev'].flatMap((dir) =>
		existsSync(path.join(root, dir))
			? readdirSync(path.join(root, dir))
					.filter((name) => name.endsWith('.md'))
					.map((name) => `${dir}/${name}`)
			: [],
	),
].filter((doc) => existsSync(path.join(root, doc)));

export interface Citation {
	doc: string;
	line: number;
	file: string;
	name: string;
}

/** Every `dir/file › name` citation of a document, with the continuation `; › name` ones. */
export function citationsIn(doc: string, text: string): Citation[] {
	const found: Citation[] = [];
	text.split('\n').forEach((content, index) => {
		let file: string | undefined;
		const pattern = /(?:([\w-]+\/[\w.-]+) )?› ((?:(?!; ›|; [\w-]+\/[\w.-]+ ›|\s\|).)+)/g;
		for (const match of content.matchAll(pattern)) {
			if (match[1]) file = match[1];
			if (!file) continue;
			found.push({ doc, line: index + 1, file, name: match[2].trim().replace(/;$/, '') });
		}
	});
	return found;
}

/** The titles of a test file: every text given first to a call, as `it`, `describe` and their `.each(...)` take it. */
export function titlesIn(source: string): Set<string> {
	const titles = new Set<string>();
	const pattern = /\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
	for (const match of source.matchAll(pattern)) titles.add(match[2].replace(/\\(.)/g, '$1'));
	return titles;
}

/** A title with placeholders (`%s`, `%i`, `$name`) matches any value in their place, or the placeholder itself. */
function titleMatches(title: string, name: string): boolean {
	if (title === name) return true;
	const placeholder = /%[sdifjop#%]|\$[\w.]+/g;
	if (!placeholder.test(title)) return false;
	const escaped = title
		.split(placeholder)
		.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
		.join('.+');
	return new RegExp(`^${escaped}$`).test(name);
}

function isTitle(titles: Set<string>, name: string): boolean {
	for (const title of titles) {
		if (titleMatches(title, name)) return true;
		if (name.startsWith(`${title} `) && isTitle(titles, name.slice(title.length + 1))) return true;
	}
	return false;
}

/** A name is a title, a describe title and a test title joined by a space, or such parts joined by ` › `. */
function isTest(titles: Set<string>, name: string): boolean {
	const parts = name.split(' › ');
	if (parts.every((part) => isTitle(titles, part))) return true;
	// A remark in parentheses after the name, as "(502 and 503)", is the document's, not the test's.
	const remark = / \([^()]*\)$/;
	return remark.test(name) && isTest(titles, name.replace(remark, ''));
}

/** The citations whose file or test does not exist, each as `doc:line: file › name (reason)`. */
export function brokenCitations(citations: Citation[]): string[] {
	const broken: string[] = [];
	for (const citation of citations) {
		// A test of n8n's engine is `<file>.test.ts`; one in real n8n (test/e2e/) is `<file>.e2e.ts`.
		const file = [`${citation.file}.test.ts`, `${citation.file}.e2e.ts`]
			.map((name) => path.join(root, 'test', name))
			.find((candidate) => existsSync(candidate));
		const where = `${citation.doc}:${citation.line}: ${citation.file} › "${citation.name}"`;
		if (!file) {
			broken.push(`${where} (no file test/${citation.file}.test.ts or .e2e.ts)`);
			continue;
		}
		if (!isTest(titlesIn(readFileSync(file, 'utf8')), citation.name)) {
			broken.push(`${where} (no test with this name in ${path.relative(root, file)})`);
		}
	}
	return broken;
}

const citations = documents.flatMap((doc) => citationsIn(doc, readFileSync(path.join(root, doc), 'utf8')));

describe('tests cited in the documents', () => {
	it("finds the citations of the write table's proof", () => {
		expect(citations.filter((citation) => citation.doc === 'docs/dev/writes.md').length).toBeGreaterThan(30);
	});

	it('names only tests that exist in the cited file', () => {
		expect(brokenCitations(citations)).toEqual([]);
	});

	it('finds a test of the end-to-end suite in test/e2e/<file>.e2e.ts', () => {
		const name = 'the manual install of the installation guide the guide shows the command this test runs, for the npm package and for a tarball';
		expect(brokenCitations([{ doc: 'docs/dev/writes.md', line: 1, file: 'e2e/manual-install', name }])).toEqual([]);
		expect(brokenCitations([{ doc: 'docs/dev/writes.md', line: 1, file: 'e2e/manual-install', name: 'no such test' }])).toEqual([
			'docs/dev/writes.md:1: e2e/manual-install › "no such test" (no test with this name in test/e2e/manual-install.e2e.ts)',
		]);
	});

	it('reports a renamed test with its document, line, file and name', () => {
		const renamed = { doc: 'docs/dev/writes.md', line: 7, file: 'nodes/pagination', name: 'a test that was renamed' };
		expect(brokenCitations([renamed])).toEqual([
			'docs/dev/writes.md:7: nodes/pagination › "a test that was renamed" (no test with this name in test/nodes/pagination.test.ts)',
		]);
	});
});
