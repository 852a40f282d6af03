/**
 * What 50 connected GET /control/events clients cost the API: authenticated GET /control/status
 * throughput and latency with no stream client, with 50 clients reading the stream, and with none
 * again (so a machine that changed speed meanwhile shows), in one run. The API (createApi) listens
 * in this process on a SQLite store; a child process (this file, TCS_BENCH_ROLE=stream-clients)
 * plays the trading process — it writes the machines document and a heartbeat every 100 ms on its
 * own store connection, as `tcs trade` publishes them — and, on request, connects the 50 stream
 * clients (fetch with a stream reader, as the console reads it) and counts what they receive. The
 * load generator runs in autocannon's worker thread, so neither the clients nor the load share the
 * server's event loop.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { openStore } from '../src/adapters/open-store.js';
import { HEARTBEAT_KEY, MACHINES_KEY } from '../src/domain/runtime-documents.js';
import type { MachinesDocument, TradingHeartbeat } from '../src/domain/runtime-documents.js';
import { int } from './stats.js';
import {
  REPO_ROOT,
  gcText,
  openBenchStore,
  printResult,
  runDirectly,
  sendToParent,
  startApi,
  watchGc,
} from './support.js';
import type { BenchResult, GcStats } from './support.js';

const STREAM_CLIENTS = Number(process.env.STREAM_CLIENTS ?? 50);
const CONNECTIONS = 50;
const DURATION_S = 10;
const WARMUP_S = 2;
const PUBLISH_MS = 100;

type ToChild = { type: 'connect'; baseUrl: string; key: string; clients: number } | { type: 'disconnect' };
type FromChild =
  | { type: 'writing' }
  | { type: 'connected'; clients: number }
  | { type: 'disconnected'; events: number; machines: number; bytes: number; ended: number }
  | { type: 'error'; message: string };

interface Phase {
  target: string;
  reqPerSec: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requests: number;
  non2xx: number;
  errors: number;
  gc: GcStats;
}

async function measure(target: string, url: string, headers: Record<string, string>, seconds: number): Promise<Phase> {
  const gc = watchGc();
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, workers: 1, headers });
  return {
    target,
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    requests: r['2xx'] + r.non2xx,
    non2xx: r.non2xx,
    errors: r.errors,
    gc: await gc.stop(),
  };
}

const wholeMs = (value: number) => (value === 0 ? '< 1 ms' : `${value} ms`);

/** The next message of `type` from the child (or its error / exit). */
function next<T extends FromChild['type']>(child: ChildProcess, type: T, timeoutMs = 30_000) {
  return new Promise<Extract<FromChild, { type: T }>>((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no "${type}" from the child within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (m: FromChild) => {
      if (m.type === 'error') done(new Error(`child: ${m.message}`));
      else if (m.type === type) done(null, m as Extract<FromChild, { type: T }>);
    };
    const onExit = (code: number | null) => done(new Error(`the stream-clients child exited (${code})`));
    function done(err: Error | null, m?: Extract<FromChild, { type: T }>) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(m!);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const bench = await openBenchStore('sqlite');
  const api = await startApi(bench.store);
  const statusUrl = `${api.baseUrl}/control/status`;
  const child = fork(join(REPO_ROOT, 'bin/run-ts.mjs'), [join(REPO_ROOT, 'bench/stream-clients.bench.ts')], {
    execArgv: [],
    env: { ...process.env, TCS_BENCH_ROLE: 'stream-clients', STORE_URL: bench.url },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let phases: Phase[];
  let received: Extract<FromChild, { type: 'disconnected' }>;
  try {
    await next(child, 'writing');
    await measure('warm-up', statusUrl, api.auth, WARMUP_S);
    const before = await measure('no stream clients (before)', statusUrl, api.auth, DURATION_S);
    child.send({ type: 'connect', baseUrl: api.baseUrl, key: api.key, clients: STREAM_CLIENTS } satisfies ToChild);
    await next(child, 'connected');
    const withClients = await measure(`${STREAM_CLIENTS} stream clients reading`, statusUrl, api.auth, DURATION_S);
    child.send({ type: 'disconnect' } satisfies ToChild);
    received = await next(child, 'disconnected');
    const after = await measure('no stream clients (after)', statusUrl, api.auth, DURATION_S);
    phases = [before, withClients, after];
  } finally {
    child.kill();
    await api.close();
    await bench.cleanup();
  }
  const [before, withClients, after] = phases as [Phase, Phase, Phase];
  const baseline = (before.reqPerSec + after.reqPerSec) / 2;
  const ratio = withClients.reqPerSec / baseline;
  const spread = Math.abs(before.reqPerSec - after.reqPerSec) / baseline;
  const notes: string[] = [];
  if (spread > 0.1)
    notes.push(
      `The two no-client measurements differ by ${(spread * 100).toFixed(0)} %: the machine's speed changed during the run, so the ratio is uncertain by about as much.`,
    );
  for (const p of phases)
    if (p.non2xx > 0 || p.errors > 0) notes.push(`${p.target}: ${p.non2xx} non-2xx answers, ${p.errors} errors`);
  notes.push(
    `The ${STREAM_CLIENTS} clients received ${int(received.events)} events while connected (about ${DURATION_S} s) (${int(received.machines)} \`machines\` events, ${int(received.bytes)} bytes); ${received.ended} streams were ended by the server.`,
  );
  const result: BenchResult = {
    id: 'stream-clients',
    title: `API: GET /control/status with 0 and ${STREAM_CLIENTS} connected /control/events clients`,
    command: 'node bin/run-ts.mjs bench/stream-clients.bench.ts',
    method: [
      `autocannon 8, ${CONNECTIONS} connections, ${DURATION_S} s per measurement after a ${WARMUP_S} s warm-up, one worker thread for the load generator; the API (createApi, SQLite store in a temp dir, Bearer key, full plugin stack) in the main thread on 127.0.0.1. Order: no clients, ${STREAM_CLIENTS} clients, no clients; the ratio divides by the mean of the two no-client figures.`,
      `A child process writes the trading process's machines document and heartbeat every ${PUBLISH_MS} ms (its own store connection) throughout, and holds the ${STREAM_CLIENTS} stream clients (fetch + stream reader with the bearer key) during the middle measurement; the API's event hub reads the documents on its shared timers (machines every 250 ms, heartbeat every 1 s) and sends each change to every client.`,
      'Latencies come from autocannon\'s histogram, which records whole milliseconds (so "4 ms" means 4 ≤ t < 5 ms).',
    ],
    tables: [
      {
        headers: [
          'GET /control/status',
          'req/s',
          'latency p50',
          'p90',
          'p99',
          'max',
          'requests',
          'GC in server thread',
        ],
        rows: phases.map((p) => [
          p.target,
          int(p.reqPerSec),
          wholeMs(p.p50),
          wholeMs(p.p90),
          wholeMs(p.p99),
          wholeMs(p.max),
          int(p.requests),
          gcText(p.gc),
        ]),
      },
      {
        headers: [
          `req/s with ${STREAM_CLIENTS} clients ÷ mean without`,
          '÷ before',
          '÷ after',
          'p99 with ÷ p99 before',
        ],
        rows: [
          [
            ratio.toFixed(3),
            (withClients.reqPerSec / before.reqPerSec).toFixed(3),
            (withClients.reqPerSec / after.reqPerSec).toFixed(3),
            before.p99 === 0 ? 'n/a (p99 < 1 ms before)' : (withClients.p99 / before.p99).toFixed(2),
          ],
        ],
      },
    ],
    figures: [
      {
        figure: `GET /control/status req/s with ${STREAM_CLIENTS} /control/events clients ÷ without`,
        aim: '—',
        latest: `${ratio.toFixed(3)} (p99 ${before.p99} → ${withClients.p99} ms)`,
        met: null,
      },
    ],
    aims: [],
    notes,
    seconds: (performance.now() - started) / 1000,
    data: { phases, ratio, received },
  };
  printResult(result);
  return result;
}

// ---------------------------------------------------------------------------------------------
// The child: the trading process's documents, and the stream clients

const ACTIVE: MachinesDocument['active'][] = [
  {
    trading: ['trading', 'trading.control', 'trading.control.running', 'trading.control.running.cycling'],
    cycle: ['cycle', 'cycle.deciding', 'cycle.deciding.sizing'],
    'order-manager': ['oms', 'oms.mode', 'oms.mode.accepting', 'oms.work', 'oms.work.busy'],
  },
  {
    trading: ['trading', 'trading.control', 'trading.control.running', 'trading.control.running.waiting'],
    cycle: [],
    'order-manager': ['oms', 'oms.mode', 'oms.mode.accepting', 'oms.work', 'oms.work.idle'],
  },
];

async function streamClientsChild(): Promise<void> {
  const store = await openStore(process.env.STORE_URL!);
  let tick = 0;
  const write = async () => {
    tick++;
    const ts = Date.now();
    const cycle = Math.floor(tick / 2);
    await store.kv.set(MACHINES_KEY, { ts, cycle: tick % 2 === 0 ? cycle : null, active: ACTIVE[tick % 2]! });
    const beat: TradingHeartbeat = {
      pid: process.pid,
      ts,
      intervalMs: PUBLISH_MS,
      state: 'running',
      epoch: 0,
      lastCycle: cycle,
      lastCycleAt: ts,
      mode: 'paper',
    };
    await store.kv.set(HEARTBEAT_KEY, beat);
  };
  await write();
  setInterval(() => void write(), PUBLISH_MS);
  await sendToParent({ type: 'writing' } satisfies FromChild);

  const counts = { events: 0, machines: 0, bytes: 0, ended: 0 };
  const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  process.on('message', (message: ToChild) => {
    if (message.type === 'connect') void connect(message);
    else void disconnect();
  });

  async function connect({ baseUrl, key, clients }: Extract<ToChild, { type: 'connect' }>) {
    const snapshots: Promise<void>[] = [];
    for (let i = 0; i < clients; i++) {
      const response = await fetch(`${baseUrl}/control/events`, { headers: { authorization: `Bearer ${key}` } });
      if (response.status !== 200) throw new Error(`stream client ${i}: ${response.status}`);
      const reader = response.body!.getReader();
      readers.push(reader);
      snapshots.push(read(reader));
    }
    await Promise.all(snapshots);
    await sendToParent({ type: 'connected', clients } satisfies FromChild);
  }

  /** Reads the whole stream in the background; resolves once the snapshot arrived. */
  function read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    return new Promise((resolve) => {
      void (async () => {
        for (;;) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (done) {
            counts.ended++;
            return;
          }
          const text = decoder.decode(value, { stream: true });
          counts.bytes += value!.byteLength;
          counts.events += text.split('\nevent: ').length - 1;
          counts.machines += text.split('event: machines\n').length - 1;
          if (text.includes('event: snapshot')) resolve();
        }
      })();
    });
  }

  async function disconnect() {
    const totals = { ...counts };
    for (const reader of readers.splice(0)) await reader.cancel().catch(() => {});
    await sendToParent({ type: 'disconnected', ...totals } satisfies FromChild);
  }
}

if (process.env.TCS_BENCH_ROLE === 'stream-clients') {
  // Never outlive the parent (its IPC channel closes when it exits).
  process.on('disconnect', () => process.exit(0));
  streamClientsChild().catch(async (err: unknown) => {
    await sendToParent({ type: 'error', message: String((err as Error).stack ?? err) } satisfies FromChild);
    process.exit(1);
  });
}

runDirectly(run);
