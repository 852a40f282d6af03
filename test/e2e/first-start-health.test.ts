/**
 * Issue 19: on a normal first start `/health` answered 503 "the store has no control record … accept
 * it with tcs store adopt" for about half a second: the API listens (and is asked) before the trading
 * process has created the store's control record. A first start is no fault: /health is polled from
 * the moment the API says it listens until the trading process beats, and never says `down` or 503;
 * meanwhile it says why it is not ok yet (the store is not initialised, the trading process not up).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { TEST_REDIS_URL, deletePrefix, requireRedis, uniquePrefix } from '../support/redis.js';
import { PERMISSIVE_ENV } from '../support/trading.js';

interface Answer {
  code: number;
  body: { status: string; reason?: string; components: { store: { status: string; reason?: string } } };
}

describe.each(['sqlite', 'redis'] as const)('a first start on %s', (kind) => {
  let dir = '';
  let prefix = '';
  let proc: RunningProcess | undefined;
  afterEach(async () => {
    await proc?.stop();
    if (prefix) await deletePrefix(prefix);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('never reports a store fault on /health, from the moment the API listens', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-first-'));
    const env: Record<string, string> = {
      ...PERMISSIVE_ENV,
      CYCLE_SECONDS: '0.25',
      SERVICE_API_KEY: generateKey(),
      RISK_HMAC_SECRET: generateKey(),
      PORT: '0',
      LOG_LEVEL: 'info',
      HEARTBEAT_MS: '200',
      STORE_TIMEOUT_MS: '3000',
    };
    if (kind === 'redis') {
      await requireRedis();
      prefix = uniquePrefix('first');
      env.STORE_URL = `${TEST_REDIS_URL}?prefix=${encodeURIComponent(prefix)}`;
    }
    proc = startTcs(['start'], env, dir);
    const [, address] = await proc.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/, 60_000);
    const answers: Answer[] = [];
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await fetch(`${address}/health`);
      const answer = { code: res.status, body: (await res.json()) as Answer['body'] };
      answers.push(answer);
      if (answer.body.status === 'ok') break;
      expect(Date.now(), JSON.stringify(answers.slice(-3))).toBeLessThan(deadline);
    }
    const faults = answers.filter((a) => a.code !== 200 || a.body.components.store.status === 'down');
    expect(faults, `${faults.length} of ${answers.length} answers: ${JSON.stringify(faults[0])}`).toEqual([]);
    // Each answer that is not ok says why.
    for (const a of answers.filter((x) => x.body.status !== 'ok')) expect(a.body.reason).toBeTruthy();
  }, 120_000);
});
