/**
 * The generated reference pages, by path from the repository root, each formatted as prettier
 * would. Written by scripts/reference-docs.ts; test/docs/reference-docs.test.ts checks the
 * committed files still match.
 */
import { configurationPage } from './configuration-page.js';
import { errorsPage } from './errors-page.js';
import { eventsPage } from './events-page.js';
import { prettierMarkdown } from './markdown.js';
import { metricsPage, processMetrics } from './metrics-page.js';
import { riskCodesPage } from './risk-codes-page.js';

export async function referencePages(): Promise<Record<string, string>> {
  const pages: Record<string, string> = {
    'docs/reference/events.md': eventsPage(),
    'docs/reference/metrics.md': metricsPage(await processMetrics()),
    'docs/reference/errors.md': errorsPage(),
    'docs/reference/risk-codes.md': riskCodesPage(),
    'docs/reference/configuration.md': configurationPage(),
  };
  const formatted: Record<string, string> = {};
  for (const [path, text] of Object.entries(pages)) formatted[path] = await prettierMarkdown(text, path);
  return formatted;
}
