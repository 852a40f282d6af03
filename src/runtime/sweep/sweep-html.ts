/** Text for the sweep's results page: HTML-escaped, and figures rounded as a reader wants them. */

export const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Whole numbers as they are, others to four decimals (whole in results.csv). */
export function rounded(x: number | null): string {
  if (x === null) return '—';
  return Number.isInteger(x) ? String(x) : x.toFixed(4);
}
