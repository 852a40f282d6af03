/** What the health panel says of GET /reports/audit-chain (console/lib/audit-line.ts), the archive's seam included. */
import { describe, expect, it } from 'vitest';
import { auditLine } from '../../console/lib/audit-line.js';
import type { AuditVerification } from '../../console/lib/types.js';

const base: AuditVerification = {
  ok: true,
  count: 100,
  head: 'a'.repeat(64),
  first_bad: null,
  checked_at: '2026-01-05T12:00:00.000Z',
  duration_ms: 3,
  archive: { status: 'none', floor: 0, problem: null },
};

describe('auditLine', () => {
  it('says intact, and from which entry the store holds it when the rest is archived', () => {
    expect(auditLine(null)).toBe('not checked yet');
    expect(auditLine(base)).toBe('intact, 100 entries (checked 2026-01-05 12:00:00 UTC)');
    expect(auditLine({ ...base, archive: { status: 'linked', floor: 2400, problem: null } })).toBe(
      'intact, 100 entries (checked 2026-01-05 12:00:00 UTC); entries 1–2400 archived, linked',
    );
  });

  it('names a break, and says when the archive could not be checked', () => {
    expect(
      auditLine({
        ...base,
        ok: false,
        head: null,
        first_bad: { seq: 2400, reason: 'the archive does not hold entry 2400' },
        archive: { status: 'broken', floor: 2400, problem: 'the archive does not hold entry 2400' },
      }),
    ).toBe('BROKEN at entry 2400: the archive does not hold entry 2400');
    expect(
      auditLine({
        ...base,
        archive: { status: 'unavailable', floor: 2400, problem: 'the audit archive could not be read' },
      }),
    ).toBe(
      'intact, 100 entries (checked 2026-01-05 12:00:00 UTC); entries 1–2400 not checked: the audit archive could not be read',
    );
  });
});
