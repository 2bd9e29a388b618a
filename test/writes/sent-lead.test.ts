/**
 * After a lost create, a lead found by a search is taken for the one sent only when it was created at or after the
 * send and carries every field sent: the rules a service's answer can test, whatever shapes its records come in.
 */
import { isTheLeadSent, matchesEverythingSent, type SentLead } from '../../nodes/Prospecting/actions/lead/sentLead';

const sent: SentLead = {
	name: 'Ana Souza',
	company: 'Fones Ltda',
	emails: [{ value: 'Ana@Example.com', label: 'work' }],
	phones: [{ value: '+55 11 3333-4444', label: 'work' }],
	mobiles: [],
};
const SENT_AT = Date.parse('2026-11-27T10:00:00Z');
const sentBy = (known: string[] = []) => ({ sent, known });
const lead = { name: 'ana souza ', company: 'FONES LTDA', emails: [{ value: 'ana@example.com' }], phones: [{ value: '551133334444' }], createdAt: '2026-11-27T10:00:01Z' };

describe('the lead a lost create sent', () => {
	it('matches a record whatever the case and spaces of its name and company, the case of its e-mails and the punctuation of its phones', () => {
		expect(isTheLeadSent(lead, sentBy(), SENT_AT)).toBe(true);
	});

	it('matches a phone the service gives as a number, and a contact given as a plain value', () => {
		expect(matchesEverythingSent({ ...lead, phones: [551133334444], emails: ['ana@example.com'] }, sent)).toBe(true);
	});

	it('is not a record that lacks a contact sent, names another person or company, or holds no list where contacts go', () => {
		expect(matchesEverythingSent({ ...lead, phones: [{ value: '551133330000' }] }, sent)).toBe(false);
		expect(matchesEverythingSent({ ...lead, name: 'Ana Lima' }, sent)).toBe(false);
		expect(matchesEverythingSent({ ...lead, company: null }, sent)).toBe(false);
		expect(matchesEverythingSent({ ...lead, emails: 'ana@example.com' }, sent)).toBe(false);
	});

	it('compares only what the record carries and what was sent', () => {
		expect(matchesEverythingSent({ emails: lead.emails, createdAt: lead.createdAt }, sent)).toBe(true);
		expect(matchesEverythingSent(lead, { ...sent, name: '', company: '', phones: [] })).toBe(true);
	});

	it('is never a lead created before the send, or one whose creation time cannot be read, unless that is the create\'s own answer', () => {
		expect(isTheLeadSent({ ...lead, createdAt: '2026-11-27T09:59:59Z' }, sentBy(), SENT_AT)).toBe(false);
		expect(isTheLeadSent({ ...lead, createdAt: undefined }, sentBy(), SENT_AT)).toBe(false);
		expect(isTheLeadSent({ ...lead, createdAt: 'ontem' }, sentBy(), SENT_AT)).toBe(false);
		expect(isTheLeadSent({ ...lead, createdAt: undefined }, sentBy(), SENT_AT, true)).toBe(true);
		expect(isTheLeadSent({ ...lead, createdAt: '2026-11-27T09:59:59Z' }, sentBy(), SENT_AT, true)).toBe(false);
	});

	it('is never a lead known before the send, nor one that carries none of the contacts sent', () => {
		expect(isTheLeadSent({ ...lead, id: 'lead_1' }, sentBy(['lead_1']), SENT_AT)).toBe(false);
		expect(isTheLeadSent({ id: 'lead_2', name: 'Ana Souza', createdAt: lead.createdAt }, sentBy(), SENT_AT, true)).toBe(false);
	});
});
