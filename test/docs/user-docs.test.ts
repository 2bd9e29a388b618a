/**
 * The user's guide kept true: every parameter, option and default it sets in bold or italics is one the nodes or the
 * credential show, with that default; every link to a file of this repository and every heading it names exists;
 * the guide stays within its word budget.
 */
import {
	brokenLink,
	emphasesIn,
	isDefaultOf,
	linkedDocs,
	namesMatch,
	read,
	repoLinksIn,
	shown,
	shownNames,
	statedDefaultsIn,
	userDocs,
	wordCount,
	type Emphasis,
	type StatedDefault,
} from './docs-support';
import { OTHER_TERMS } from './other-terms';

/**
 * A lead-in in sentence case that ends its phrase ("**The workflow is not active**: …", "**Public URLs.**") is prose,
 * not a name: a name is in title case, as the forms show it.
 */
function isLeadIn(span: Emphasis): boolean {
	const words = span.text.split(' ').slice(1);
	return /[.:]$/.test(span.text) || (/^[.:]/.test(span.after) && words.some((word) => /^[a-z]/.test(word)));
}

/** A span the docs may emphasise: a name the forms show, a part of "Resource → Operation", or another known term. */
function isKnown(text: string): boolean {
	const parts = text.split(/ → | = /).map((part) => part.replace(/[.:]$/, '').trim());
	return parts.every(
		(part) => OTHER_TERMS.has(part) || [...shownNames].some((name) => namesMatch(part, name)) || /^\d+$/.test(part),
	);
}

/** The names no form shows, each as `doc: text`. */
export function unknownNames(spans: Emphasis[]): string[] {
	return spans.filter((span) => !span.text.startsWith('`') && !isLeadIn(span) && !isKnown(span.text)).map((span) => `${span.doc}: ${span.text}`);
}

/** The defaults no parameter of that name has, each as `doc: name = values`. */
export function wrongDefaults(stated: StatedDefault[]): string[] {
	return stated
		.filter((claim) => {
			const named = shown.filter((item) => namesMatch(claim.name, item.name));
			return named.length > 0 && !named.some((item) => isDefaultOf(claim.values, item));
		})
		.map((claim) => `${claim.doc}: ${claim.name} = ${claim.values.join(' | ')}`);
}

const userText = userDocs.map((doc) => ({ doc, text: read(doc) }));

/** What belongs to the maintainers' pages (docs/dev/, BENCHMARKS.md), each kind with what finds it. */
const MAINTAINERS_MATERIAL: Array<[string, RegExp]> = [
	['a rule number', /\brules? \d+\b/gi],
	['a test citation', /[\w-]+\/[\w.-]+ › /g],
	['a test file', /\b[\w-]+\.(?:test|e2e)\.ts\b|\btest\/[\w/.-]+/g],
	['a count of tests', /\b\d+ test files?\b|\b\d+(?:\/\d+)? tests?\b/gi],
	['a source file', /\b(?:nodes|credentials|scripts|sandbox|bench|dev)\/[\w/.-]+\.(?:ts|js|mjs)\b/g],
	['a benchmark', /BENCHMARKS\.md/g],
];

/** Each piece of maintainers' material in a page, as `doc:line: kind "text"`. */
export function maintainersMaterial(doc: string, text: string): string[] {
	return text.split('\n').flatMap((line, index) =>
		MAINTAINERS_MATERIAL.flatMap(([kind, pattern]) => [...line.matchAll(pattern)].map((match) => `${doc}:${index + 1}: ${kind} "${match[0]}"`)),
	);
}

describe("the user's guide", () => {
	it('sets in bold or italics only names the nodes and the credential show, or terms it knows', () => {
		expect(unknownNames(userText.flatMap(({ doc, text }) => emphasesIn(doc, text)))).toEqual([]);
	});

	it('states every default as the nodes and the credential have it', () => {
		const stated = userText.flatMap(({ doc, text }) => statedDefaultsIn(doc, text));
		expect(stated.length).toBeGreaterThan(30);
		expect(wrongDefaults(stated)).toEqual([]);
	});

	it('fails on a renamed option and on a changed default put back', () => {
		const old = '*Retry When Confirmed Not Created*, on by default, sends the lead again.';
		expect(unknownNames(emphasesIn('docs/x.md', old))).toEqual(['docs/x.md: Retry When Confirmed Not Created']);
		const changed = '**Send Again If Not Found (May Duplicate)** (default on) and **Look for a Lost Lead For** (default 120 s).';
		expect(wrongDefaults(statedDefaultsIn('docs/x.md', changed))).toEqual([
			'docs/x.md: Send Again If Not Found (May Duplicate) = on',
			'docs/x.md: Look for a Lost Lead For = 120 s',
		]);
	});

	it('keeps within 10,000 words, the guarantees page within 1,000', () => {
		const words = userText.reduce((total, { text }) => total + wordCount(text), 0);
		expect(words).toBeLessThanOrEqual(10_000);
		expect(wordCount(read('docs/guarantees.md'))).toBeLessThanOrEqual(1_000);
	});

	it("carries no maintainers' material: rule numbers, test citations, test files, counts of tests, source files, benchmarks", () => {
		expect(userText.flatMap(({ doc, text }) => maintainersMaterial(doc, text))).toEqual([]);
	});

	it("finds each kind of maintainers' material, with its page and line", () => {
		const page = [
			'These are all its rules, in the words of the code (`nodes/Prospecting/transport/rateRules.ts`):',
			'each keeps to its part of the limits (rule 1); the test that shows it: nodes/rate-policy › rule 1: pace',
			'| n8n 2.41.1 | ✔ 82/82 tests (8 test files), 2026-11-23 |, as test/e2e/n8n.e2e.ts shows',
			'Measurements: [BENCHMARKS.md](../BENCHMARKS.md).',
		].join('\n');
		expect(maintainersMaterial('docs/x.md', page)).toEqual([
			'docs/x.md:1: a source file "nodes/Prospecting/transport/rateRules.ts"',
			'docs/x.md:2: a rule number "rule 1"',
			'docs/x.md:2: a rule number "rule 1"',
			'docs/x.md:2: a test citation "nodes/rate-policy › "',
			'docs/x.md:3: a test file "test/e2e/n8n.e2e.ts"',
			'docs/x.md:3: a count of tests "82/82 tests"',
			'docs/x.md:3: a count of tests "8 test files"',
			'docs/x.md:4: a benchmark "BENCHMARKS.md"',
			'docs/x.md:4: a benchmark "BENCHMARKS.md"',
		]);
	});
});

describe('links between the documents', () => {
	it('every link to a file of this repository, and every heading it names, exists', () => {
		const links = linkedDocs.flatMap((doc) => repoLinksIn(doc, read(doc)));
		expect(links.length).toBeGreaterThan(50);
		expect(links.map(brokenLink).filter(Boolean)).toEqual([]);
	});

	it('reports a link to a missing heading with its document and line', () => {
		expect(brokenLink({ doc: 'docs/trigger.md', line: 3, target: 'guarantees.md#no-such-heading' })).toBe(
			'docs/trigger.md:3: guarantees.md#no-such-heading (no heading #no-such-heading in docs/guarantees.md)',
		);
	});
});
