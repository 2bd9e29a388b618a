import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isBlank, isContactItem } from '../output';
import { booleanValue } from '../parameters';
import { FROM_VERSION_2, inVersions, VERSION_1_ONLY } from '../../shared/versions';
import { isToolForm } from '../tool';

const SIMPLIFY_DESCRIPTION =
	'Whether to add the first email, phone and mobile as plain fields (email, phone, mobile) beside the full lists, and leave out empty fields';

/**
 * Simplify in normal use (the tool form has its own Output choice). Off in version 1, where turning it on would
 * change the output saved workflows map; on in version 2, as in n8n's own nodes.
 */
export const simplifyLeadProperties: INodeProperties[] = [
	inVersions(VERSION_1_ONLY, {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		displayOptions: { show: { '@tool': [false] } },
		description: SIMPLIFY_DESCRIPTION,
	}),
	inVersions(FROM_VERSION_2, {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		displayOptions: { show: { '@tool': [false] } },
		description: SIMPLIFY_DESCRIPTION,
	}),
];

/** Whether item `i` asks for simplified leads; never in tool form, whose `simplify` means the agent's compact records. */
export function simplifyLeadsWanted(this: IExecuteFunctions, i: number): boolean {
	if (isToolForm.call(this)) return false;
	return booleanValue.call(this, i, 'simplify', this.getNodeParameter('simplify', i, false), false);
}

/** Left out of a simplified lead: a blank field or an empty list. */
function isEmpty(value: unknown): boolean {
	return isBlank(value) || (Array.isArray(value) && value.length === 0);
}

/** The first non-empty value of a contact list ({ value, label } items). */
function firstContactValue(list: unknown): unknown {
	if (!Array.isArray(list)) return undefined;
	for (const entry of list) {
		// An object that is not a contact item has no value to show.
		const value = isContactItem(entry) ? entry.value : entry && typeof entry === 'object' ? undefined : entry;
		if (!isEmpty(value)) return value;
	}
	return undefined;
}

/** The fields of a simplified lead, in this order; `email`, `phone`, `mobile` are the first of their lists. */
const SIMPLIFIED_FIELDS = [
	'id',
	'name',
	'company',
	'email',
	'phone',
	'mobile',
	'emails',
	'phones',
	'mobiles',
	'createdAt',
] as const;

const FIRST_OF = {
	email: 'emails',
	phone: 'phones',
	mobile: 'mobiles',
} as const;

/**
 * A lead as a no-code user maps it: id, name, company, createdAt, the first email, phone and mobile as plain
 * `email`, `phone`, `mobile` beside the full `emails`, `phones`, `mobiles` lists; empty fields left out.
 */
export function simplifyLead(lead: IDataObject): IDataObject {
	const simplified: IDataObject = {};
	for (const field of SIMPLIFIED_FIELDS) {
		const value =
			field in FIRST_OF
				? firstContactValue(lead[FIRST_OF[field as keyof typeof FIRST_OF]])
				: lead[field];
		if (!isEmpty(value)) simplified[field] = value as IDataObject[keyof IDataObject];
	}
	return simplified;
}
