/**
 * What the health panel says of GET /reports/audit-chain: intact or where it broke, and, on a store
 * trimmed after archiving, whether the archive holds on where the store's window starts (linked) or
 * could not be checked (unavailable). A broken seam comes as `ok: false` with its entry named.
 */
import { utc } from './format.js';
import type { AuditVerification } from './types.js';

export function auditLine(audit: AuditVerification | null): string {
  if (audit === null) return 'not checked yet';
  if (!audit.ok) return `BROKEN at entry ${audit.first_bad?.seq}: ${audit.first_bad?.reason}`;
  const line = `intact, ${audit.count} entries (checked ${utc(audit.checked_at)})`;
  const { status, floor, problem } = audit.archive;
  if (status === 'linked') return `${line}; entries 1–${floor} archived, linked`;
  if (status === 'unavailable') return `${line}; entries 1–${floor} not checked: ${problem ?? 'archive unavailable'}`;
  return line;
}
