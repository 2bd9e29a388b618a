/**
 * The addresses `npm run demo` prints: the editor, the example forms (opened in a browser) and the example webhooks
 * (called with curl), from the workflows it imported. The browser suite (test/e2e/browser.e2e.ts) opens the lead
 * form from the line this module prints, against its own instance.
 */
import { formUrl, webhookUrl } from './instance-setup';
import type { StoredWorkflow } from './n8n-client';

export interface DemoLink {
	kind: 'editor' | 'form' | 'webhook';
	/** What the printed line calls it: "n8n editor", the form node's name in lower case ("lead form"), the workflow's name for a webhook. */
	label: string;
	url: string;
	workflow?: StoredWorkflow;
	/** A webhook's HTTP method (the Webhook node's, GET by default). */
	method?: string;
}

export interface DemoLinkOptions {
	editorUrl: string;
	/** Where production webhooks and forms are served: the editor's URL, or the webhook processor's in queue mode. */
	webhookBase: string;
	workflows: StoredWorkflow[];
}

/** The editor, then every Form Trigger and every Webhook node of the workflows, in their order. */
export function demoLinks({ editorUrl, webhookBase, workflows }: DemoLinkOptions): DemoLink[] {
	const links: DemoLink[] = [{ kind: 'editor', label: 'n8n editor', url: editorUrl }];
	for (const workflow of workflows) {
		for (const node of workflow.nodes) {
			if (node.type === 'n8n-nodes-base.formTrigger') {
				links.push({ kind: 'form', label: node.name.toLowerCase(), url: formUrl(webhookBase, workflow, node.name), workflow });
			} else if (node.type === 'n8n-nodes-base.webhook') {
				const method = String(node.parameters?.httpMethod ?? 'GET');
				links.push({ kind: 'webhook', label: workflow.name, url: webhookUrl(webhookBase, workflow, node.name), workflow, method });
			}
		}
	}
	return links;
}

const LABEL_WIDTH = 16;

/** The lines the demo prints at the top: one per page to open in a browser (the editor and the forms). */
export function demoPageLines(links: DemoLink[]): string[] {
	return links
		.filter((link) => link.kind === 'editor' || link.kind === 'form')
		.map((link) => `  ${link.label.padEnd(LABEL_WIDTH)}${link.url}${link.kind === 'form' ? '   (open in a browser)' : ''}`);
}

/** The URL printed on the line for `label` (as a reader copies it from the terminal). */
export function urlOnLine(lines: string[], label: string): string {
	const line = lines.find((text) => text.startsWith(`  ${label.padEnd(LABEL_WIDTH)}`));
	const url = line && /https?:\/\/\S+/.exec(line)?.[0];
	if (!url) throw new Error(`No line for "${label}" with a URL in:\n${lines.join('\n')}`);
	return url;
}
