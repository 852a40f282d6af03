/**
 * `npm start` (`tcs start`) tells a newcomer, once the API listens, where the operator console is and
 * which key signs in, and where that key is: the real launcher, on a free port with a SQLite file in a
 * temporary directory. The line is proven true (the page answers, the key from the named file signs
 * in) and never carries the key.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';

describe('tcs start prints how to reach the console', () => {
  let dir = '';
  let proc: RunningProcess | undefined;
  afterEach(async () => {
    await proc?.stop();
    proc = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('on a first run: the address it listens on, and SERVICE_API_KEY in the .env it wrote', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-console-hint-'));
    // No SERVICE_API_KEY in the environment: the first run writes it to .env in the working directory.
    proc = startTcs(
      ['start'],
      { STORE_URL: `sqlite:${join(dir, 'tcs.db')}`, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn' },
      dir,
    );
    const envPath = join(dir, '.env');
    const [line, url] = await proc.waitFor(
      /tcs: console: open (http:\/\/127\.0\.0\.1:\d+\/) and sign in with the API key: SERVICE_API_KEY, from (.*)\n/,
      60_000,
    );
    expect(line).toContain(`from ${envPath}\n`);

    const key = parseEnv(readFileSync(envPath, 'utf8')).SERVICE_API_KEY!;
    expect(key.length).toBeGreaterThanOrEqual(32);
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const status = await fetch(`${url}control/status`, { headers: { authorization: `Bearer ${key}` } });
    expect(status.status).toBe(200);

    // Said once, and no secret of the .env anywhere in what was printed.
    const printed = proc.stdout() + proc.stderr();
    expect(printed.match(/tcs: console:/g)).toHaveLength(1);
    for (const secret of Object.values(parseEnv(readFileSync(envPath, 'utf8')))) expect(printed).not.toContain(secret);
  }, 90_000);
});
