/** Event kinds are dotted names; this keeps stray spaces, quotes or separators out of a subscription. */
const EVENT_KIND = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,99}$/;

/** What a valid event kind looks like, as error messages say it. */
export const EVENT_KIND_RULE =
	'use letters, digits, dots, dashes, underscores or colons, e.g. prospection.won';

export function isEventKind(value: string): boolean {
	return EVENT_KIND.test(value);
}
