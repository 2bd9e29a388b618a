/** Simplify on Lead → Get Many and Lead → Create in normal use: the shape a no-code user maps. */
import { simplifyLead } from '../../nodes/Prospecting/actions/lead/simplify';
import { jsonOf, runNode } from './support';
import { useSandbox } from '../support/sandbox';

const { sandbox, connection } = useSandbox({ rateLimit: false, dataset: { leads: 24 } });

const stored = (id: unknown) => {
	const lead = sandbox.control.leads().find((candidate) => candidate.id === id)!;
	return JSON.parse(JSON.stringify(lead)) as Record<string, unknown>;
};

/** What the documentation promises for a stored lead. */
function expectedSimplified(lead: Record<string, unknown>) {
	const first = (kind: string) => (lead[kind] as Array<{ value: string }>)[0]?.value;
	const shape: Record<string, unknown> = {
		id: lead.id,
		name: lead.name,
		company: lead.company,
		email: first('emails'),
		phone: first('phones'),
		mobile: first('mobiles'),
		emails: lead.emails,
		phones: lead.phones,
		mobiles: lead.mobiles,
		createdAt: lead.createdAt,
	};
	for (const [key, value] of Object.entries(shape)) {
		if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) {
			delete shape[key];
		}
	}
	return shape;
}

describe('Lead → Get Many', () => {
	it('returns leads as the service sends them in version 1 unless Simplify is turned on', async () => {
		const run = await runNode({ resource: 'lead', operation: 'getMany', returnAll: true }, connection);
		expect(run.error).toBeUndefined();
		for (const lead of jsonOf(run.items)) expect(lead).toEqual(stored(lead.id));
	});

	it('simplifies leads by default in version 2: first email, phone and mobile beside the full lists', async () => {
		const run = await runNode(
			{ resource: 'lead', operation: 'getMany', returnAll: true },
			{ ...connection, typeVersion: 2 },
		);
		expect(run.error).toBeUndefined();
		const leads = jsonOf(run.items);
		expect(leads).toHaveLength(24);
		for (const lead of leads) expect(lead).toEqual(expectedSimplified(stored(lead.id)));
		// The dataset holds leads without a phone and without a mobile: those fields are left out, not blank.
		expect(leads.some((lead) => !('phone' in lead) && !('phones' in lead))).toBe(true);
		expect(leads.some((lead) => !('mobile' in lead) && !('mobiles' in lead))).toBe(true);
		expect(leads.some((lead) => !('email' in lead) && typeof lead.mobile === 'string')).toBe(true);
	});

	it('simplifies leads in version 1 when Simplify is turned on, and not in version 2 when it is off', async () => {
		const on = await runNode(
			{ resource: 'lead', operation: 'getMany', limit: 3, simplify: true },
			connection,
		);
		for (const lead of jsonOf(on.items)) expect(lead).toEqual(expectedSimplified(stored(lead.id)));
		const off = await runNode(
			{ resource: 'lead', operation: 'getMany', limit: 3, simplify: false },
			{ ...connection, typeVersion: 2 },
		);
		for (const lead of jsonOf(off.items)) expect(lead).toEqual(stored(lead.id));
	});
});

describe('Lead → Create', () => {
	const newLead = {
		resource: 'lead',
		operation: 'create',
		name: 'Bruna Lima',
		company: '',
		email: 'bruna@lima.example.com',
		additionalFields: { mobile: '+55 11 98888-7777' },
		dryRun: 'never',
	};

	it('returns the simplified lead by default in version 2', async () => {
		const run = await runNode(newLead, { ...connection, typeVersion: 2 });
		expect(run.error).toBeUndefined();
		const [lead] = jsonOf(run.items);
		expect(lead).toEqual({
			id: expect.any(String),
			name: 'Bruna Lima',
			email: 'bruna@lima.example.com',
			mobile: '+55 11 98888-7777',
			emails: [{ value: 'bruna@lima.example.com', label: 'Principal' }],
			mobiles: [{ value: '+55 11 98888-7777', label: 'Principal' }],
			createdAt: expect.any(String),
			leadOutcome: 'created',
		});
		expect(lead).toEqual({ ...expectedSimplified(stored(lead.id)), leadOutcome: 'created' });
	});

	it('returns the lead as the service sends it in version 1', async () => {
		const run = await runNode(newLead, connection);
		const [lead] = jsonOf(run.items);
		// The service's lead as it is, and whether this node created it or found it.
		expect(lead).toEqual({ ...stored(lead.id), leadOutcome: 'created' });
		expect(lead).not.toHaveProperty('email');
	});

	it('leaves a dry run as it is: the request it would send, not a lead', async () => {
		const run = await runNode({ ...newLead, dryRun: 'always' }, { ...connection, typeVersion: 2 });
		const [output] = jsonOf(run.items);
		expect(output).toMatchObject({ dryRun: true, written: false, request: { method: 'POST' } });
		expect(sandbox.control.leads()).toHaveLength(24);
	});
});

describe('simplifyLead', () => {
	it('takes the first non-empty contact and leaves out empty values and fields beyond the documented ones', () => {
		expect(
			simplifyLead({
				id: 'l1',
				name: '',
				company: null,
				emails: [{ value: '', label: 'x' }, { value: 'b@x.com', label: 'y' }],
				phones: [],
				status: 'ATIVO',
				createdAt: '2026-01-01T00:00:00.000Z',
			}),
		).toEqual({
			id: 'l1',
			email: 'b@x.com',
			emails: [{ value: '', label: 'x' }, { value: 'b@x.com', label: 'y' }],
			createdAt: '2026-01-01T00:00:00.000Z',
		});
	});
});
