/**
 * docs/reference/events.md: every stdout event line, from the catalog typed by the EventLine union
 * (src/domain/event-line-catalog.ts), so the page lists exactly the events and fields the code writes.
 */
import { EVENT_LINE_CATALOG } from '../../src/domain/event-line-catalog.js';
import type { EventLineCatalog } from '../../src/domain/event-line-catalog.js';
import { code, header, table } from './markdown.js';

export function eventsPage(catalog: EventLineCatalog = EVENT_LINE_CATALOG): string {
  const parts = [
    ...header('Event lines (stdout)', 'src/domain/event-line-catalog.ts'),
    'The trading process writes one JSON object per line to stdout, `event` first, then exactly the fields listed,',
    'in that order; no logger fields. Every line kind is one type in `src/domain/event-lines.ts` with one constructor.',
    '',
  ];
  for (const [name, entry] of Object.entries(catalog) as [string, { when: string; fields: Record<string, string> }][]) {
    parts.push(`## ${code(name)}`, '', entry.when, '');
    const fields = Object.entries(entry.fields);
    if (fields.length === 0) parts.push('No fields.', '');
    else
      parts.push(
        ...table(
          ['field', 'meaning'],
          fields.map(([field, meaning]) => [code(field), meaning]),
        ),
      );
  }
  return parts.join('\n');
}
