/**
 * What the decisions panel says about the audit archive, from the page's X-Audit-Archive header
 * (src/api/routes/reports.ts): nothing while the archive is not needed or was read; when a page
 * reached below the store's window and the archive could not be read, why the page stops short.
 */
export function archiveNote(header: string | null): string | null {
  if (header !== 'unavailable') return null;
  return 'The audit archive cannot be read now: this page holds only the decisions the store keeps, and older decisions are not shown until it is back (the API log says why).';
}
