/**
 * The `tcs` command as a user runs it: help everywhere, clear refusals, keygen, first-run start (what
 * it writes to .env, and the modes of .env and of the store it creates).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from 'node:util';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { generateKey } from '../../src/domain/keys.js';
import { cancelPayload } from '../support/commands.js';
import { exitWithin, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';

async function run(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string) {
  const proc = startTcs(args, env, cwd);
  const { code } = await proc.exited;
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

describe('tcs', () => {
  let dir = '';
  let proc: RunningProcess | undefined;
  afterEach(async () => {
    await proc?.stop();
    proc = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('prints usage with every command, and help for each', async () => {
    const top = await run(['--help']);
    expect(top.code).toBe(0);
    for (const name of ['start', 'api', 'trade', 'audit', 'keygen']) {
      expect(top.stdout).toContain(name);
      const sub = await run([name, '--help']);
      expect(sub.code, name).toBe(0);
      expect(sub.stdout).toMatch(new RegExp(`^Usage: tcs ${name}`));
    }
  });

  it('refuses unknown commands and options with exit 2', async () => {
    expect((await run(['launch'])).code).toBe(2);
    const bad = await run(['keygen', '--length=5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown option '--length'");
  });

  it('start refuses --reason without --reset-kill instead of ignoring it', async () => {
    const res = await run(['start', '--reason', 'incident closed']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--reason only goes with --reset-kill');
  });

  it('every --reason an operator gives is bounded like the API (500 characters): longer is exit 2 and nothing is written', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-cli-'));
    const env = {
      STORE_URL: `sqlite:${join(dir, 'tcs.db')}`,
      SERVICE_API_KEY: generateKey(),
      RISK_HMAC_SECRET: generateKey(),
    };
    const long = 'x'.repeat(501);
    for (const args of [
      ['start', '--reset-kill', '--reason', long],
      ['trade', '--reset-kill', '--reason', long],
      ['store', 'adopt', '--reason', long],
      ['risk', 'reset', '--reason', long],
    ]) {
      // Stopped by afterEach if it does not exit by itself (today's `start` would go on and serve).
      proc = startTcs(args, env, dir);
      const { code } = await exitWithin(proc, 15_000);
      expect(code, args.join(' ')).toBe(2);
      expect(proc.stderr(), args.join(' ')).toContain('--reason is longer than 500 characters (501)');
    }
    expect(existsSync(join(dir, 'tcs.db'))).toBe(false);
  });

  it('keygen prints a fresh URL-safe key from 32 bytes', async () => {
    const a = await run(['keygen']);
    const b = await run(['keygen']);
    expect(a.stdout.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.stdout).not.toBe(b.stdout);
  });

  it('api refuses to start without a key, or with a short one, saying why and showing no stack', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-cli-'));
    const missing = await run(['api'], {}, dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('SERVICE_API_KEY is not set');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    const short = await run(['api'], { SERVICE_API_KEY: 'x'.repeat(31) }, dir);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('at least 32');
    expect(short.stderr).not.toContain('x'.repeat(31));
  });

  it('start on a first run writes .env (0600) with fresh secrets, serves the API, and stops cleanly on SIGTERM', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-cli-'));
    // No secret at all, CONTROL_SECRET included: the API and the trading process share the one written.
    proc = startTcs(['start'], { PORT: '0', LOG_LEVEL: 'info', CONTROL_SECRET: undefined }, dir);
    await proc.waitFor(/first run: wrote .*\.env \(mode 0600\)/);
    const match = await proc.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/);
    const envPath = join(dir, '.env');
    expect(statSync(envPath).mode & 0o777).toBe(0o600);
    const env = parseEnv(readFileSync(envPath, 'utf8')) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual(['CONTROL_SECRET', 'RISK_HMAC_SECRET', 'SERVICE_API_KEY']);
    for (const secret of Object.values(env)) expect(proc.stdout() + proc.stderr()).not.toContain(secret);
    // The API listens first; the trading process, started once it does, creates the brand-new store
    // (a store is never created by whoever merely opens it), so status answers 200 once it has.
    await proc.waitFor(/trading process started/);
    const res = await fetch(`${match[1]}/control/status`, {
      headers: { authorization: `Bearer ${env.SERVICE_API_KEY}` },
    });
    expect(res.status).toBe(200);
    expect(existsSync(join(dir, 'var', 'tcs.db'))).toBe(true);
    // var/ holds the control state and the audit trail: only its owner may read it.
    expect(statSync(join(dir, 'var')).mode & 0o777).toBe(0o700);
    for (const file of ['tcs.db', 'tcs.db-wal', 'tcs.db-shm']) {
      expect(statSync(join(dir, 'var', file)).mode & 0o777, file).toBe(0o600);
    }
    proc.child.kill('SIGTERM');
    expect((await proc.exited).code).toBe(0);
  });

  it('start writes no .env when both secrets come from the environment, and says nothing of one', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-cli-'));
    const env = { SERVICE_API_KEY: generateKey(), RISK_HMAC_SECRET: generateKey(), PORT: '0', LOG_LEVEL: 'info' };
    proc = startTcs(['start'], env, dir);
    // The launcher's first-run step is over once it says what it starts (the e2e tests, whose
    // secrets also come from the environment, prove the API and trading process then start).
    await proc.waitFor(/^tcs: starting: API on /m);
    expect(existsSync(join(dir, '.env'))).toBe(false);
    expect(proc.stderr()).not.toMatch(/first run|wrote|your API key/);
  });

  it('start writes to .env only the secret the environment lacks, and says which', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-cli-'));
    const key = generateKey();
    proc = startTcs(['start'], { SERVICE_API_KEY: key, PORT: '0', LOG_LEVEL: 'info' }, dir);
    const [line] = await proc.waitFor(/tcs: first run: .*\n/);
    expect(line).toContain('RISK_HMAC_SECRET');
    expect(line).not.toMatch(/fresh [^;]*SERVICE_API_KEY/);
    expect(line).toMatch(/SERVICE_API_KEY and CONTROL_SECRET come from the environment/);
    expect(line).not.toContain('your API key is in that file');
    const written = parseEnv(readFileSync(join(dir, '.env'), 'utf8')) as Record<string, string>;
    expect(Object.keys(written)).toEqual(['RISK_HMAC_SECRET']);
    expect(statSync(join(dir, '.env')).mode & 0o777).toBe(0o600);
    await proc.waitFor(/"address":"http:\/\/127\.0\.0\.1:\d+"/);
  });

  it('audit verify passes on an intact trail and names the first tampered entry', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-cli-'));
    const path = join(dir, 'audit.db');
    const store = await openSqliteStore({ path });
    for (let i = 1; i <= 5; i++)
      await store.events.append({ kind: 'decision', at: new Date(i * 1000).toISOString(), body: { cycle: i } });
    await store.close();
    const ok = await run(['audit', 'verify'], { STORE_URL: `sqlite:${path}` }, dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/audit trail intact: 5 entries/);
    const db = new Database(path);
    db.prepare('UPDATE events SET body = ? WHERE seq = 3').run(JSON.stringify({ cycle: 99 }));
    db.close();
    const bad = await run(['audit', 'verify'], { STORE_URL: `sqlite:${path}` }, dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/audit trail BROKEN at entry 3/);
    expect((await run(['audit'], {}, dir)).code).toBe(2);
  });

  it('audit verify exits 1 naming the completed commands that have no command_executed entry', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-cli-'));
    const path = join(dir, 'audit.db');
    const store = await openSqliteStore({ path });
    for (const id of ['recorded', 'lost-1', 'lost-2', 'open'])
      await store.commands.enqueue({
        id,
        type: 'cancel_all',
        payload: cancelPayload(),
        enqueued_at: new Date(1000).toISOString(),
      });
    const at = new Date(2000).toISOString();
    const entry = { kind: 'command_executed', at, body: { command_id: 'recorded', type: 'cancel_all' } };
    await store.commands.completeWithEntry('recorded', { status: 'done' }, at, entry);
    // Done without an entry, as completing in two steps left commands when the append was refused.
    await store.commands.complete('lost-1', { status: 'done' }, at);
    await store.commands.complete('lost-2', { status: 'done' }, at);
    await store.close();
    const bad = await run(['audit', 'verify'], { STORE_URL: `sqlite:${path}` }, dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/2 completed commands have no command_executed entry: lost-1, lost-2/);
    expect(bad.stderr).not.toMatch(/recorded|open/);
  });

  it('audit verify exits 1 naming the first missing entry when the newest entries were deleted', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-cli-'));
    const path = join(dir, 'audit.db');
    const store = await openSqliteStore({ path });
    for (let i = 1; i <= 5; i++)
      await store.events.append({ kind: 'decision', at: new Date(i * 1000).toISOString(), body: { cycle: i } });
    await store.close();
    const db = new Database(path);
    expect(db.prepare('DELETE FROM events WHERE seq >= 4').run().changes).toBe(2);
    db.close();
    const bad = await run(['audit', 'verify'], { STORE_URL: `sqlite:${path}` }, dir);
    expect(bad.code).toBe(1);
    expect(bad.stdout).not.toMatch(/intact/);
    expect(bad.stderr).toMatch(/audit trail BROKEN at entry 4: .*missing/);
  });
});
