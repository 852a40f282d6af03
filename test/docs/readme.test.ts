/**
 * The README stays a start page (issue 31): at most 250 lines, the test command CI runs stated as
 * such, the docs map one click away, and every safety promise linked to a test file that exists —
 * a promise whose proof was renamed or deleted must not keep pointing at nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');

/** The README's section under an H2 heading, up to the next H2. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) return '';
  const next = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, next < 0 ? undefined : next);
}

describe('README.md', () => {
  it('is at most 250 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it('states `npm test` as the test command', () => {
    expect(readme).toMatch(/^npm test\b.*the test command/m);
  });

  it('links the docs map', () => {
    expect(readme).toContain('](docs/index.md)');
  });

  it('links every safety promise to a test file that exists', () => {
    const promises = section('Safety promises, and where each is proven');
    const links = [...promises.matchAll(/\]\((test\/[^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThanOrEqual(10);
    expect(links.filter((link) => !existsSync(`${root}${link}`))).toEqual([]);
  });
});
