/**
 * The report page's HTML helpers: escaping, JSON that can sit in a script element, and plain
 * tables (readable and printable without scripts).
 */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON that cannot close the script element holding it (`</script>`, `<!--`). */
export const scriptSafeJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

export interface TableOptions {
  /** One letter per column: l (text, left) or r (figures, right); default: first l, rest r. */
  align?: string;
  /** The table's id (tests and readers find a table by it). */
  id?: string;
}

export function htmlTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: TableOptions = {},
): string {
  const { align, id } = options;
  const right = (i: number) => (align === undefined ? i > 0 : align[i] === 'r');
  const head = header.map((h, i) => `<th${right(i) ? ' class="n"' : ''}>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((c, i) => `<td${right(i) ? ' class="n"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`)
    .join('\n');
  const idAttr = id === undefined ? '' : ` id="${escapeHtml(id)}"`;
  return `<table${idAttr}><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}
