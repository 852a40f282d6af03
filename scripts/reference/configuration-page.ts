/** docs/reference/configuration.md: every environment variable, from src/runtime/config-variables.ts, by section. */
import { CONFIG_VARIABLES } from '../../src/runtime/config-variables.js';
import type { ConfigVariable } from '../../src/runtime/config-variables.js';
import { code, header, table } from './markdown.js';

export function configurationPage(variables: readonly ConfigVariable[] = CONFIG_VARIABLES): string {
  const parts = [
    ...header('Configuration', 'src/runtime/config-variables.ts'),
    'Every variable is read from the environment and from `.env` in the working directory (the real environment',
    'wins); `.env.example` has each one with a comment. A bad value stops start-up with a message naming the',
    'variable. Unset or blank takes the default.',
    '',
  ];
  const sections = [...new Set(variables.map((v) => v.section))];
  for (const section of sections) {
    parts.push(
      `## ${section}`,
      '',
      ...table(
        ['variable', 'default', 'allowed', 'meaning'],
        variables
          .filter((v) => v.section === section)
          .map((v) => [code(v.name), v.default === null ? '—' : code(v.default), v.allowed, v.meaning]),
      ),
    );
  }
  return parts.join('\n');
}
