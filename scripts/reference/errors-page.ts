/** docs/reference/errors.md: every error code of the API, from src/api/error-codes.ts, by status. */
import { ERROR_CODE_CATALOG } from '../../src/api/error-codes.js';
import type { ErrorCodeEntry } from '../../src/api/error-codes.js';
import { code, header, table } from './markdown.js';

export function errorsPage(catalog: Readonly<Record<string, ErrorCodeEntry>> = ERROR_CODE_CATALOG): string {
  const entries = Object.entries(catalog);
  const http = entries.filter(([, e]) => e.status !== null).sort(([, a], [, b]) => a.status! - b.status!);
  const other = entries.filter(([, e]) => e.status === null);
  return [
    ...header('Errors', 'src/api/error-codes.ts'),
    'Every error has Fastify’s standard body: `{"statusCode","code","error","message"}`. That includes 404, and the',
    'errors Node’s HTTP parser raises before a route runs (then the connection is closed). No error or log line',
    'contains a key, a secret or a stack trace. `TCS_*` codes are this service’s; `FST_ERR_*` are Fastify’s own.',
    '',
    ...table(
      ['status', 'code', 'when'],
      http.map(([name, e]) => [String(e.status), code(name), e.when]),
    ),
    ...(other.length > 0
      ? [
          '## Codes that are not HTTP answers',
          '',
          ...table(
            ['code', 'meaning'],
            other.map(([name, e]) => [code(name), e.when]),
          ),
        ]
      : []),
  ].join('\n');
}
