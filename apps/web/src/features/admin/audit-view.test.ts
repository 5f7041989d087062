import type { AuditEntry } from '@rideway/contract';
import { ERASED, REDACTED } from '@rideway/domain';
import { describe, expect, it } from 'vitest';
import { auditPath } from '../../api/audit';
import { actionLabel, actorLabel, auditFiltersOf, changeLines, NO_AUDIT_FILTERS, valueText, whatText } from './audit-view';

/** The test's "translation": the key, with its values when it has any. */
const t = (key: string, values?: Record<string, unknown>) => (values ? `${key}(${JSON.stringify(values)})` : key);
const dateTime = (at: number) => `time:${String(at)}`;

const entry = (changes: Partial<AuditEntry> = {}): AuditEntry => ({
  id: 7,
  at: 1_795_000_000_000,
  actor: { uid: 'a1', usertype: 'admin', name: 'Ada Admin', email: 'ada@example.com' },
  action: 'settings.update',
  entityType: 'settings',
  entityId: 'settings',
  entityName: null,
  before: { bonus: 5, otp_secure: false },
  after: { bonus: 7.5, otp_secure: true },
  requestId: 'req-1',
  ...changes,
});

describe('issue 23 point 8: the audit page reads an entry', () => {
  it("an action's and a kind's names are message keys; a two-word action keeps its underscore", () => {
    expect(actionLabel('user.two_factor_reset', t)).toBe('audit_action_user_two_factor_reset');
    expect(actionLabel('wallet.credit', t)).toBe('audit_action_wallet_credit');
  });

  it('who: the name, or that the account is gone', () => {
    expect(actorLabel(entry(), t)).toBe('Ada Admin');
    expect(actorLabel(entry({ actor: { uid: null, usertype: 'admin', name: '', email: null } }), t)).toBe('audit_account_gone');
  });

  it('what: the kind, the user by name or the entity by id (settings are one), and the fields changed', () => {
    expect(whatText(entry(), t)).toBe('audit_entity_settings · audit_fields_changed({"fields":"bonus, otp_secure"})');
    expect(whatText(entry({ action: 'wallet.credit', entityType: 'wallet', entityId: 'u9', entityName: 'Rita Rider', before: { walletBalance: 1 }, after: { walletBalance: 3 } }), t)).toBe('audit_entity_wallet: Rita Rider · audit_fields_changed({"fields":"walletBalance"})');
    expect(whatText(entry({ action: 'promo.delete', entityType: 'promo', entityId: 'p1', before: { promo_name: 'X' }, after: null }), t)).toContain('audit_entity_promo: p1');
  });

  it('values: none, a secret and an erased value in words, yes and no, a time field as a time, the rest as written', () => {
    expect(valueText('bankAccount', null, t, dateTime)).toBe('audit_no_value');
    expect(valueText('passwordHash', REDACTED, t, dateTime)).toBe('audit_redacted');
    expect(valueText('email', ERASED, t, dateTime)).toBe('audit_erased');
    expect(valueText('approved', false, t, dateTime)).toBe('no');
    expect(valueText('procesDate', 1_795_000_000_000, t, dateTime)).toBe('time:1795000000000');
    // A number that is not a time stays a number, whatever its field is called.
    expect(valueText('walletBalance', 17.5, t, dateTime)).toBe('17.5');
    expect(valueText('serviceArea', [[{ lat: 1, lng: 2 }]], t, dateTime)).toBe('[[{"lat":1,"lng":2}]]');
  });

  it('a creation has nothing before, a deletion nothing after', () => {
    expect(changeLines(entry({ before: null, after: { name: 'Van' } }), t, dateTime)).toEqual([{ field: 'name', before: 'audit_no_value', after: 'Van' }]);
    expect(changeLines(entry({ before: { label: 'Late' }, after: null }), t, dateTime)).toEqual([{ field: 'label', before: 'Late', after: 'audit_no_value' }]);
  });

  it('filters: only those chosen are sent, days whole in the browser time zone, and the cursor of an older page', () => {
    expect(auditPath(auditFiltersOf(NO_AUDIT_FILTERS))).toBe('/api/audit');
    const filters = auditFiltersOf({ search: '  Ada ', action: 'settings.update', entityType: '', from: '2026-11-01', to: '2026-11-02' });
    expect(filters).toEqual({ search: 'Ada', action: 'settings.update', from: new Date('2026-11-01T00:00:00').getTime(), to: new Date('2026-11-02T23:59:59.999').getTime() });
    expect(auditPath(filters, 42)).toBe(`/api/audit?search=Ada&action=settings.update&from=${String(filters.from)}&to=${String(filters.to)}&before=42`);
  });
});
