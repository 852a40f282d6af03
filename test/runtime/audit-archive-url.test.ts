/** AUDIT_ARCHIVE_URL chooses the archive by its scheme; anything else is a clear error without the password. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/runtime/config-error.js';
import { openArchive } from '../../src/runtime/audit-archive.js';

describe('openArchive', () => {
  it('opens a directory for file: and a database for postgres:// or postgresql://', async () => {
    expect(openArchive({ AUDIT_ARCHIVE_URL: 'file:/tmp/tcs-archive-url-test' }).description).toBe(
      'file:/tmp/tcs-archive-url-test',
    );
    for (const scheme of ['postgres', 'postgresql']) {
      const archive = openArchive({ AUDIT_ARCHIVE_URL: `${scheme}://tcs:pw@127.0.0.1:5432/audit` });
      try {
        expect(archive.description).toBe(`${scheme}://tcs@127.0.0.1:5432/audit`);
      } finally {
        await archive.close();
      }
    }
  });

  it('refuses another scheme, naming the two it takes and never the password', () => {
    const open = () => openArchive({ AUDIT_ARCHIVE_URL: 'mysql://tcs:hunter2@db/audit' });
    expect(open).toThrow(ConfigError);
    expect(open).toThrow(/file:<directory> or postgres:\/\//);
    expect(open).not.toThrow(/hunter2/);
    expect(() => openArchive({ AUDIT_ARCHIVE_URL: 'file:' })).toThrow(ConfigError);
  });
});
