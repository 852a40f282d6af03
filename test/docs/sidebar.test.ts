/** The docs site's sidebar (scripts/docs/sidebar.ts) comes from the folders: a new page appears without editing config. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSidebar, pageTitle } from '../../scripts/docs/sidebar.js';

let docs: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(docs, path)), { recursive: true });
  writeFileSync(join(docs, path), text);
}

beforeEach(() => {
  docs = mkdtempSync(join(tmpdir(), 'tcs-sidebar-'));
});
afterEach(() => rmSync(docs, { recursive: true, force: true }));

describe('pageTitle', () => {
  it('is the first H1 outside code, in plain text, else the fallback', () => {
    expect(pageTitle('```sh\n# comment\n```\n\n# The `tcs` command\n\n# Second', 'x')).toBe('The tcs command');
    expect(pageTitle('## Only an H2', 'fallback')).toBe('fallback');
  });
});

describe('buildSidebar', () => {
  it('groups pages by section folder in reading order, titled by their H1, with new folders and root pages after', () => {
    write('index.md', '# Home\n');
    write('develop/testing.md', '# Testing\n');
    write('develop/adding-a-command.md', '# Adding a command\n');
    write('operate/running.md', '# Running the service\n');
    write('operate/index.md', '# Operating\n');
    write('research/notes.md', '# Research notes\n');
    write('reference/generated/events.md', '# Event lines\n');
    write('live-venue-notes.md', '# Live venue notes\n');
    mkdirSync(join(docs, 'images'));
    mkdirSync(join(docs, '.vitepress'));
    expect(buildSidebar(docs)).toEqual([
      {
        text: 'Operate',
        items: [
          { text: 'Operating', link: '/operate/' },
          { text: 'Running the service', link: '/operate/running' },
        ],
      },
      {
        text: 'Develop',
        items: [
          { text: 'Adding a command', link: '/develop/adding-a-command' },
          { text: 'Testing', link: '/develop/testing' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'generated', collapsed: true, items: [{ text: 'Event lines', link: '/reference/generated/events' }] },
        ],
      },
      { text: 'Research', items: [{ text: 'Research notes', link: '/research/notes' }] },
      { text: 'More', items: [{ text: 'Live venue notes', link: '/live-venue-notes' }] },
    ]);
  });
});
