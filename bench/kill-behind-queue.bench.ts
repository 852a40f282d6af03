/**
 * The kill's cancels behind a flood of queued commands (issue 30, finding 5), on both stores: QUEUED
 * flatten commands are queued, then the kill's `kill_cancels`; a consumer claims as the trading
 * process's command pump does (CLAIM_BATCH at a time) and completes every other command it is handed
 * (its result and its audit entry, no venue work at all: the cheapest a flatten can be) until it is
 * handed the kill's cancels. Timed on the monotonic clock from the kill's enqueue to its claim, with
 * the position it was handed out at. Only port calls that existed before the fix, so the same file
 * measures the code before it (check out the two adapters' old files, run, check them back out).
 * QUEUED and TRIALS override 3,000 and 3.
 */
import { performance } from 'node:perf_hooks';
import { COMMAND_LEASE_MS } from '../src/application/command-pump.js';
import type { Store } from '../src/ports/store.js';
import { int, ms, summarize } from './stats.js';
import { openBenchStore, printResult, runDirectly } from './support.js';
import type { BenchResult, StoreKind } from './support.js';

const QUEUED = Number(process.env.QUEUED ?? 3_000);
const TRIALS = Number(process.env.TRIALS ?? 3);
/** The pump's claim batch (src/application/command-pump.ts). */
const CLAIM_BATCH = 50;
const STORES: StoreKind[] = ['sqlite', 'redis'];

interface Trial {
  store: StoreKind;
  delayMs: number;
  position: number;
  claims: number;
}

async function trial(store: Store, kind: StoreKind, round: number): Promise<Trial> {
  const at = new Date().toISOString();
  for (let i = 0; i < QUEUED; i++)
    await store.commands.enqueue({
      id: `flood-${round}-${i}`,
      type: 'flatten',
      payload: { symbols: ['BTCUSDT'], reason: 'bench flood', actor: 'bench' },
      enqueued_at: at,
    });
  const killId = `kill-cancels-bench-${round}`;
  await store.commands.enqueue({
    id: killId,
    type: 'kill_cancels',
    payload: { instructions: [{ tool: 'cancel_all_orders', symbol: 'BTCUSDT' }], reason: 'bench', actor: 'bench' },
    enqueued_at: at,
  });
  const started = performance.now();
  let position = 0;
  let claims = 0;
  for (;;) {
    const claimed = await store.commands.claim('bench', {
      max: CLAIM_BATCH,
      leaseMs: COMMAND_LEASE_MS,
      now: Date.now(),
    });
    claims++;
    if (claimed.length === 0) throw new Error("the kill's cancels were never handed out");
    for (const command of claimed) {
      position++;
      if (command.id === killId) {
        const delayMs = performance.now() - started;
        // What is left of the flood is completed untimed, so the next trial starts from an empty queue.
        await drain(store);
        return { store: kind, delayMs, position, claims };
      }
      await completeOne(store, command.id);
    }
  }
}

async function completeOne(store: Store, id: string): Promise<void> {
  const at = new Date().toISOString();
  await store.commands.complete(id, { status: 'flat' }, at);
  await store.events.append({ kind: 'command_executed', at, body: { command_id: id, type: 'flatten' } });
}

async function drain(store: Store): Promise<void> {
  for (;;) {
    const claimed = await store.commands.claim('bench', { max: 500, leaseMs: COMMAND_LEASE_MS, now: Date.now() });
    if (claimed.length === 0) return;
    for (const command of claimed) await store.commands.complete(command.id, { status: 'flat' }, '');
  }
}

export async function run(): Promise<BenchResult> {
  const began = performance.now();
  const trials: Trial[] = [];
  for (const kind of STORES) {
    const bench = await openBenchStore(kind);
    try {
      for (let round = 0; round < TRIALS; round++) trials.push(await trial(bench.store, kind, round));
    } finally {
      await bench.cleanup();
    }
  }
  const rows = STORES.map((kind) => {
    const mine = trials.filter((t) => t.store === kind);
    const delay = summarize(mine.map((t) => t.delayMs));
    return [
      kind,
      int(mine.length),
      int(mine[0]?.position ?? 0),
      int(mine[0]?.claims ?? 0),
      ms(delay.p50),
      ms(delay.max),
    ];
  });
  const result: BenchResult = {
    id: 'kill-behind-queue',
    title: `The kill's cancels behind ${int(QUEUED)} queued flattens`,
    command: 'node bin/run-ts.mjs bench/kill-behind-queue.bench.ts',
    method: [
      `${int(QUEUED)} flatten commands queued, then the kill's kill_cancels; claimed ${CLAIM_BATCH} at a time as the command pump does`,
      'every other command handed out is completed (result + audit entry, no venue work) before the next claim',
      'delay: monotonic ms from the kill_cancels enqueue to its claim',
    ],
    tables: [
      {
        headers: ['store', 'trials', 'handed out at', 'claims', 'delay p50', 'delay max'],
        rows,
      },
    ],
    figures: STORES.map((kind) => {
      const delay = summarize(trials.filter((t) => t.store === kind).map((t) => t.delayMs));
      return {
        figure: `the kill's cancels claimed behind ${int(QUEUED)} queued flattens (${kind})`,
        aim: '< 60 s (one cycle)',
        latest: `${ms(delay.p50)} p50 (max ${ms(delay.max)})`,
        met: delay.max < 60_000,
      };
    }),
    aims: [{ text: 'under one cycle (60 s)', met: trials.every((t) => t.delayMs < 60_000) }],
    notes: [],
    seconds: (performance.now() - began) / 1000,
    data: trials,
  };
  printResult(result);
  return result;
}

runDirectly(run);
