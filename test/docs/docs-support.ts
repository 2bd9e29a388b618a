/**
 * What the documentation tests read: the user's guide (README.md and docs/*.md, the maintainers' docs/dev/ aside),
 * every Markdown file whose links must resolve, the names and defaults the nodes and the credential show, and the
 * emphasised spans and stated defaults of a page.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { ProspectingApi } from '../../credentials/ProspectingApi.credentials';
import { Prospecting } from '../../nodes/Prospecting/Prospecting.node';
import { ProspectingPollTrigger } from '../../nodes/Prospecting/ProspectingPollTrigger.node';
import { ProspectingTrigger } from '../../nodes/Prospecting/ProspectingTrigger.node';

export const root = path.join(__dirname, '..', '..');
export const REPO_URL = 'https://github.com/n8n-nodes-prospecting/n8n-nodes-prospecting/blob/main/';
const RAW_URL = 'https://raw.githubusercontent.com/n8n-nodes-prospecting/n8n-nodes-prospecting/main/';

const markdownIn = (dir: string): string[] =>
	existsSync(path.join(root, dir))
		? readdirSync(path.join(root, dir))
				.filter((name) => name.endsWith('.md'))
				.map((name) => `${dir}/${name}`)
		: [];

/** The user's guide: what a user reads, and what the word budget counts. */
export const userDocs = ['README.md', ...markdownIn('docs')];
/** Every Markdown file of the repository a reader may follow a link from. */
export const linkedDocs = [
	...userDocs,
	...markdownIn('docs/dev'),
	'CONTRIBUTING.md',
	'BENCHMARKS.md',
	'CHANGELOG.md',
	'sandbox/README.md',
].filter((doc) => existsSync(path.join(root, doc)));

export const read = (doc: string): string => readFileSync(path.join(root, doc), 'utf8');

/** Words as `wc -w` counts them: runs of characters between whitespace. */
export const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** The text without fenced code blocks, inline code and HTML comments: what is prose. */
export function prose(text: string): string {
	return text
		.replace(/```[\s\S]*?```/g, '')
		.replace(/<!--[\s\S]*?-->/g, '')
		.replace(/`[^`\n]*`/g, (code) => (/[*_]/.test(code) ? '`…`' : code));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\w\- ]/g, '')
		.replace(/ /g, '-');
}

export function anchorsOf(text: string): Set<string> {
	return new Set(
		text
			.replace(/```[\s\S]*?```/g, '')
			.split('\n')
			.filter((line) => /^#{1,6} /.test(line))
			.map((line) => anchorOf(line.replace(/^#+ /, ''))),
	);
}

export interface Link {
	doc: string;
	line: number;
	target: string;
}

/** Every Markdown link of a document to a file of this repository: relative, or this repository's GitHub address. */
export function repoLinksIn(doc: string, text: string): Link[] {
	const links: Link[] = [];
	text
		.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ' '))
		.split('\n')
		.forEach((content, index) => {
			for (const match of content.matchAll(/\]\(([^)\s]+)\)/g)) {
				const target = match[1];
				if (target.startsWith(REPO_URL) || target.startsWith(RAW_URL)) {
					links.push({ doc, line: index + 1, target: `/${target.slice(target.startsWith(REPO_URL) ? REPO_URL.length : RAW_URL.length)}` });
				} else if (!/^[a-z]+:/.test(target)) links.push({ doc, line: index + 1, target });
			}
		});
	return links;
}

/** Why a link does not resolve, or undefined when its file (and heading, if it names one) exists. */
export function brokenLink(link: Link): string | undefined {
	const [file, anchor] = link.target.split('#');
	const resolved = file === '' ? link.doc : file.startsWith('/') ? file.slice(1) : path.join(path.dirname(link.doc), file);
	const full = path.join(root, resolved.replace(/\/$/, ''));
	if (!existsSync(full)) return `${link.doc}:${link.line}: ${link.target} (no file ${resolved})`;
	if (anchor === undefined) return undefined;
	if (!resolved.endsWith('.md')) return `${link.doc}:${link.line}: ${link.target} (an anchor into a file that is not Markdown)`;
	if (!anchorsOf(readFileSync(full, 'utf8')).has(anchor)) return `${link.doc}:${link.line}: ${link.target} (no heading #${anchor} in ${resolved})`;
	return undefined;
}

/** A parameter, an option of a collection, or a credential field, with the values it offers. */
export interface Shown {
	name: string;
	default: unknown;
	/** The option labels and values of an options or multiOptions parameter. */
	choices: Array<{ label: string; value: unknown }>;
}

const isProperty = (option: INodeProperties | INodePropertyOptions | INodePropertyCollection): option is INodeProperties =>
	'displayName' in option && 'type' in option;

function collect(properties: INodeProperties[], into: Shown[]): Shown[] {
	for (const property of properties) {
		const choices = (property.options ?? []).flatMap((option) =>
			!('displayName' in option) && 'value' in option ? [{ label: String(option.name), value: option.value }] : [],
		);
		into.push({ name: property.displayName, default: property.default, choices });
		for (const option of property.options ?? []) {
			if (isProperty(option)) collect([option], into);
			else if ('values' in option) {
				into.push({ name: option.displayName, default: undefined, choices: [] });
				collect(option.values, into);
			}
		}
	}
	return into;
}

const descriptions = [new Prospecting().description, new ProspectingTrigger().description, new ProspectingPollTrigger().description];
const credential = new ProspectingApi();

/** Every name a user sees in the nodes' and the credential's forms. */
export const shown: Shown[] = collect([...descriptions.flatMap((description) => description.properties), ...credential.properties], []);

/** "Lead Create", "Routine Add Lead": each operation as its resource and operation labels name it. */
const resource = new Prospecting().description.properties.find((property) => property.name === 'resource');
const operations = (resource?.options ?? []).flatMap((option) => {
	const label = String(option.name);
	const value = 'value' in option ? option.value : undefined;
	return new Prospecting().description.properties
		.filter((property) => property.name === 'operation' && (property.displayOptions?.show?.resource as unknown[] | undefined)?.includes(value))
		.flatMap((property) => (property.options ?? []).map((operation) => `${label} ${String(operation.name)}`));
});

/** Node and credential names, operations and every option label: what the docs may set in bold as what the user sees. */
export const shownNames = new Set<string>([
	...descriptions.map((description) => description.displayName),
	...operations,
	'Prospecting Tool',
	credential.displayName,
	...shown.map((item) => item.name),
	...shown.flatMap((item) => item.choices.map((choice) => choice.label)),
]);

/** A name as the docs may write it: the form's own, or without its unit, as "Max Rate Limit Wait". */
export const namesMatch = (written: string, name: string): boolean => written === name || `${written} (Seconds)` === name;

export interface Emphasis {
	doc: string;
	text: string;
	/** The prose that follows the span, up to the end of its paragraph. */
	after: string;
}

/** Every bold or italic span of a document's prose, with what follows it in the paragraph. */
export function emphasesIn(doc: string, text: string): Emphasis[] {
	const spans: Emphasis[] = [];
	for (const paragraph of prose(text).split(/\n\s*\n|\n(?=\s*[-*|#] |\s*\d+\. )/)) {
		const flat = paragraph.replace(/\s+/g, ' ');
		const pattern = /\*\*([^*]+?)\*\*|(?<![*\w])\*(?! )([^*]+?)(?<! )\*(?![*\w])|(?<![\w`])_(?! )([^_]+?)(?<! )_(?![\w`])/g;
		for (const match of flat.matchAll(pattern)) {
			const span = (match[1] ?? match[2] ?? match[3]).trim();
			spans.push({ doc, text: span, after: flat.slice((match.index ?? 0) + match[0].length) });
		}
	}
	return spans;
}

/** The value a stated default names: the emphasised spans after "default", or the plain words up to , ; or ). */
export function statedValues(afterDefault: string): string[] {
	const text = afterDefault.replace(/^:?\s*/, '');
	if (text.startsWith('*')) {
		const values: string[] = [];
		let rest = text;
		for (;;) {
			const match = /^\*\*?([^*]+?)\*\*?(?:,? and |, | or )?/.exec(rest);
			if (!match) break;
			values.push(match[1].trim());
			rest = rest.slice(match[0].length);
			if (!rest.startsWith('*')) break;
		}
		return values;
	}
	const plain = /^([^,;)]+)/.exec(text)?.[1]?.trim() ?? '';
	return plain === '' ? [] : [plain.replace(/`/g, '')];
}

/** Whether a written default ("on", "300 s", "empty", an option's label) is this parameter's default. */
export function isDefaultOf(values: string[], item: Shown): boolean {
	const { default: actual, choices } = item;
	const same = (written: string, value: unknown): boolean => {
		const choice = choices.find((candidate) => candidate.label === written || candidate.label.split(' (')[0] === written);
		if (choice) return choice.value === value;
		if (typeof value === 'boolean') return (written === 'on' || written === 'true') === value && ['on', 'off', 'true', 'false'].includes(written);
		if (typeof value === 'number') return Number(written.replace(/ s$| seconds$/, '')) === value;
		if (typeof value === 'string') return written === value || (written === 'empty' && value === '');
		return false;
	};
	if (Array.isArray(actual)) {
		if (values.length === 1 && values[0] === 'empty') return actual.length === 0;
		return values.length === actual.length && actual.every((value) => values.some((written) => same(written, value)));
	}
	if (actual !== null && typeof actual === 'object') return values.length === 1 && values[0] === 'empty' && Object.keys(actual).length === 0;
	return values.length === 1 && same(values[0], actual);
}

export interface StatedDefault {
	doc: string;
	name: string;
	values: string[];
}

/** Defaults a page states: "**Name** (… default X …)", "**Name** … X by default" and tables with a Default column. */
export function statedDefaultsIn(doc: string, text: string): StatedDefault[] {
	const stated: StatedDefault[] = [];
	for (const span of emphasesIn(doc, text)) {
		const inParentheses = /^ ?\(((?:[^()]|\([^()]*\))*)\)/.exec(span.after);
		const byDefault = /^,? (on|off) by default/.exec(span.after);
		if (inParentheses) {
			const at = inParentheses[1].search(/\bdefault\b/);
			if (at >= 0) {
				const values = statedValues(inParentheses[1].slice(at + 'default'.length));
				if (values.length > 0) stated.push({ doc, name: span.text, values });
			}
		} else if (byDefault) stated.push({ doc, name: span.text, values: [byDefault[1]] });
	}
	const lines = prose(text).split('\n');
	lines.forEach((line, index) => {
		const cells = (row: string) => row.split('|').slice(1, -1).map((cell) => cell.trim());
		if (!line.startsWith('|') || !lines[index + 1]?.startsWith('|---')) return;
		const header = cells(line);
		const column = header.findIndex((cell) => cell === 'Default');
		if (column < 0) return;
		for (let row = index + 2; lines[row]?.startsWith('|'); row++) {
			const [first, ...rest] = cells(lines[row]);
			const name = first.replace(/\*/g, '').replace(/ \(next release\)$/, '').trim();
			const values = statedValues(rest[column - 1] ?? '');
			stated.push({ doc, name, values: values.flatMap((value) => value.split(/, /)) });
		}
	});
	return stated;
}
