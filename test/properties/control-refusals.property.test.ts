/**
 * Issue 30, "Done when": over random interleavings of control calls (pause, resume, kill, kill with
 * flatten, cancel-all, deleverage, flatten, status) through the real Fastify app and store refusals
 * of a real store — a Redis of the test's own switched between out of memory (`maxmemory` 1 byte,
 * `noeviction`) and healthy, or a SQLite file whose write lock another connection takes and lets go —
 * no answer is a 500, and a kill is either recorded (200, or 503 saying it WAS recorded and only its
 * follow-up command was not) or refused as NOT recorded (503): once the store takes writes again the
 * status says `killed` exactly when some kill was recorded, so no kill is ever silently dropped.
 *
 * One store and one app serve every run, as a long-lived API does; each run starts healed, with an
 * earlier run's kill reset by the operator's own command. The SQLite store's deadline is short (a
 * refused write waits for the lock until it passes) so 50 runs take a few seconds.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../src/adapters/redis/redis-store.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { createApi } from '../../src/api/create-api.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import { generateKey } from '../../src/domain/keys.js';
import type { Store } from '../../src/ports/store.js';
import { createCommandCompletion } from '../../src/application/command-completion.js';
import { isMalformed } from '../../src/domain/commands.js';
import type { StoredCommand } from '../../src/domain/commands.js';
import { systemClock } from '../../src/ports/clock.js';
import { isStoreFailure } from '../../src/ports/store-errors.js';
import { TEST_SYMBOLS } from '../support/api.js';
import { startOwnRedis } from '../support/redis-server.js';
import type { OwnRedis } from '../support/redis-server.js';
import { resetKillAsOperator } from '../../src/runtime/kill-reset.js';
import { initialised } from '../support/stores.js';

/** A refused write waits at most this long (SQLite waits for the lock until then). */
const STORE_DEADLINE_MS = 60;
const NUM_RUNS = 50;

type Step =
  | { call: 'GET' | 'POST'; path: string; body?: unknown }
  | { refuse: true } // the store starts refusing writes
  | { heal: true } // and takes them again
  | { complete: true }; // the trading process's side: the oldest open command claimed and completed

const CALLS: Step[] = [
  { call: 'POST', path: '/control/pause', body: { reason: 'property' } },
  { call: 'POST', path: '/control/resume', body: {} },
  { call: 'POST', path: '/control/kill-switch', body: { reason: 'property' } },
  { call: 'POST', path: '/control/kill-switch', body: { reason: 'property', flatten: true } },
  { call: 'POST', path: '/control/cancel-all', body: { symbols: null } },
  { call: 'POST', path: '/control/deleverage', body: { symbol: 'BTCUSDT', reduce_pct: 0.5 } },
  { call: 'POST', path: '/control/flatten', body: { symbols: null } },
  { call: 'GET', path: '/control/status' },
];
const stepArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...CALLS) },
  { weight: 1, arbitrary: fc.constant<Step>({ refuse: true }) },
  { weight: 1, arbitrary: fc.constant<Step>({ heal: true }) },
  { weight: 2, arbitrary: fc.constant<Step>({ complete: true }) },
);

/** One store of one run, and how to make it refuse writes and take them again. */
interface Subject {
  store: Store;
  refuse(): Promise<void>;
  heal(): Promise<void>;
  cleanup(): Promise<void>;
}

/** What a run saw: every answer in order, and whether some kill was recorded. */
interface RunOutcome {
  answers: Array<{ path: string; status: number; message: string }>;
  killRecorded: boolean;
  app: FastifyInstance;
  key: string;
  store: Store;
}

/** Every `command_executed` entry of the store's whole trail, by command id (paged: 1,000 a query). */
async function executedEntries(store: Store): Promise<Map<string, number>> {
  const count = new Map<string, number>();
  let before: number | undefined;
  for (;;) {
    const page = await store.events.query({ kind: 'command_executed', limit: 1000, ...(before ? { before } : {}) });
    for (const entry of page) {
      const id = String((entry.body as { command_id?: unknown }).command_id);
      count.set(id, (count.get(id) ?? 0) + 1);
    }
    if (page.length < 1000) return count;
    before = page.at(-1)!.seq;
  }
}

/** What holds after every run, once the store takes writes again. */
const INVARIANTS: Array<(run: RunOutcome) => Promise<void>> = [
  async function noInternalErrors(run) {
    for (const answer of run.answers) expect(answer.status, `${answer.path}: ${answer.message}`).not.toBe(500);
  },
  async function killsAreRecordedOrRefused(run) {
    for (const answer of run.answers.filter((a) => a.path === '/control/kill-switch')) {
      expect([200, 503], answer.message).toContain(answer.status);
      if (answer.status === 503) expect(answer.message).toMatch(/NOT recorded/);
    }
    const status = await run.app.inject({
      method: 'GET',
      url: '/control/status',
      headers: { authorization: `Bearer ${run.key}` },
    });
    expect(status.statusCode).toBe(200);
    expect(status.json<{ state: string }>().state === 'killed', status.body).toBe(run.killRecorded);
  },
  async function everyCompletedCommandHasExactlyOneEntry(run) {
    const done = await run.store.commands.completedIds();
    const entries = await executedEntries(run.store);
    for (const id of done) expect(entries.get(id) ?? 0, `command ${id}`).toBe(1);
    for (const id of entries.keys()) expect(done, `entry for ${id}`).toContain(id);
  },
];

/**
 * The trading process's completion, as it runs (src/application/command-completion.ts): one store
 * step or nothing. A refused completion throws and leaves the command open, claimed again later.
 */
function completerOver(store: Store) {
  const complete = createCommandCompletion({
    store,
    clock: systemClock,
    events: { emit: () => {} },
    log: () => {},
    accountChanged: async () => {},
  });
  return async () => {
    let claimed: StoredCommand[] = [];
    try {
      claimed = await store.commands.claim('property', { max: 1, leaseMs: 0, now: Date.now() });
    } catch (err) {
      if (!isStoreFailure(err)) throw err;
      return; // the store refused the claim: nothing was claimed
    }
    const [command] = claimed;
    if (!command || isMalformed(command)) return;
    try {
      await complete(command, { status: 'done' });
    } catch (err) {
      if (!isStoreFailure(err)) throw err; // refused: the command stays open
    }
  };
}

/** The real app over `subject`'s store, made once: building one takes about half a second. */
async function appOver(store: Store): Promise<{ app: FastifyInstance; key: string }> {
  const key = generateKey();
  const app = await createApi({
    store,
    apiKeys: [key],
    instruments: parseInstruments(TEST_SYMBOLS),
    defaultMode: 'paper',
    controlRateLimit: 1_000_000,
  });
  return { app, key };
}

/**
 * One run: the store healed and any earlier run's kill reset by the operator's own command (killed
 * → running, audited), then the steps, then the store healed again and every invariant checked.
 */
async function play(subject: Subject, api: { app: FastifyInstance; key: string }, steps: Step[]): Promise<void> {
  await subject.heal();
  await resetKillAsOperator(subject.store, 'next property run');
  const { app, key } = api;
  const run: RunOutcome = { answers: [], killRecorded: false, app, key, store: subject.store };
  const completeOne = completerOver(subject.store);
  for (const step of steps) {
    if ('complete' in step) await completeOne();
    else if ('refuse' in step) await subject.refuse();
    else if ('heal' in step) await subject.heal();
    else {
      const reply = await app.inject({
        method: step.call,
        url: step.path,
        headers: { authorization: `Bearer ${key}` },
        ...(step.body === undefined ? {} : { payload: step.body as Record<string, unknown> }),
      });
      const message = String(reply.json<{ message?: unknown }>().message ?? '');
      run.answers.push({ path: step.path, status: reply.statusCode, message });
      // A 503 after the kill itself was written (only its cancels or flatten were not) is recorded.
      if (step.path === '/control/kill-switch' && (reply.statusCode === 200 || /kill WAS recorded/.test(message)))
        run.killRecorded = true;
    }
  }
  await subject.heal();
  for (const invariant of INVARIANTS) await invariant(run);
}

describe('control calls interleaved with store refusals: no 500, no kill silently dropped', () => {
  describe('Redis switched between out of memory and healthy (own redis-server)', () => {
    let redis: OwnRedis;
    let admin: Redis;
    let subject: Subject;
    let api: { app: FastifyInstance; key: string };

    beforeAll(async () => {
      redis = await startOwnRedis();
      admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      const store = await initialised(await openRedisStore({ url: redis.url, timeoutMs: 1_000, onError: () => {} }));
      subject = {
        store,
        refuse: async () => void (await admin.config('SET', 'maxmemory', '1')),
        heal: async () => void (await admin.config('SET', 'maxmemory', '0')),
        cleanup: () => store.close(),
      };
      api = await appOver(store);
    });
    afterAll(async () => {
      await api?.app.close();
      await subject?.cleanup();
      admin.disconnect();
      await redis.cleanup();
    });

    it(`${NUM_RUNS} random interleavings`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), (steps) => play(subject, api, steps)),
        { numRuns: NUM_RUNS },
      );
    }, 60_000);
  });

  describe('SQLite whose write lock another connection takes and lets go', () => {
    let dir: string;
    let holder: Database.Database;
    let subject: Subject;
    let api: { app: FastifyInstance; key: string };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'tcs-refusals-property-'));
      const path = join(dir, 'tcs.db');
      const store = await initialised(await openSqliteStore({ path, timeoutMs: STORE_DEADLINE_MS }));
      holder = new Database(path);
      subject = {
        store,
        async refuse() {
          if (!holder.inTransaction) holder.exec('BEGIN IMMEDIATE');
        },
        async heal() {
          if (holder.inTransaction) holder.exec('COMMIT');
        },
        async cleanup() {
          holder.close();
          await store.close();
        },
      };
      api = await appOver(store);
    });
    afterAll(async () => {
      await api?.app.close();
      await subject?.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    it(`${NUM_RUNS} random interleavings`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), (steps) => play(subject, api, steps)),
        { numRuns: NUM_RUNS },
      );
    }, 60_000);
  });
});
