/**
 * Start-up time and memory of the real `tcs` processes, BEFORE (the TypeScript sources through tsx:
 * `node bin/run-ts.mjs src/cli/main.ts …`, as `tcs` ran before the build existed, children included)
 * and AFTER (the compiled bin: `node bin/tcs.mjs …`, dist/ with source maps), in one run:
 *  - `tcs api`: spawn → the "api listening" log line, then RSS after IDLE_MS of idling;
 *  - `tcs trade`: spawn → the first `cycle_end` event line; and RSS after 1,000 cycles
 *    (CYCLE_SECONDS=0.05, the lowest allowed), with VmHWM (peak RSS);
 *  - `tcs start`: RSS of the supervisor + API + trading processes once the API listens and the
 *    first cycle ended, after IDLE_MS more; also every descendant (tsx runs an esbuild helper).
 * Every process gets its own SQLite store in a temp dir. RSS is VmRSS from /proc/<pid>/status
 * (Linux only). Trials alternate before/after so drift in machine load hits both alike. The 1,000-
 * cycle runs of both variants go side by side (each trial lasts ≥ 50 s of mostly sleeping), which
 * does not change RSS. STARTUP_TRIALS scales every trial count (default 1 = 7/7/3/5 trials).
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateKey } from '../src/domain/keys.js';
import { int, ms, percentile } from './stats.js';
import { REPO_ROOT, printResult, runDirectly } from './support.js';
import type { BenchResult } from './support.js';

type Variant = 'before' | 'after';
const VARIANTS: Variant[] = ['before', 'after'];

const SCALE = Number(process.env.STARTUP_TRIALS ?? 1);
const TRIALS = {
  api: Math.max(1, Math.round(7 * SCALE)),
  tradeStart: Math.max(1, Math.round(7 * SCALE)),
  trade1000: Math.max(1, Math.round(3 * SCALE)),
  start: Math.max(1, Math.round(5 * SCALE)),
};
const IDLE_MS = 3000;
const CYCLES = 1000;
const WAIT_MS = 60_000;
const AIM_FASTER = 0.35;
const AIM_START_MIB = 270;

const COMMANDS: Record<Variant, string> = {
  before: 'node bin/run-ts.mjs src/cli/main.ts',
  after: 'node bin/tcs.mjs',
};
const LABELS: Record<Variant, string> = { before: 'before (tsx)', after: 'after (compiled)' };

function argvOf(variant: Variant, args: string[]): string[] {
  return variant === 'before'
    ? [join(REPO_ROOT, 'bin/run-ts.mjs'), join(REPO_ROOT, 'src/cli/main.ts'), ...args]
    : [join(REPO_ROOT, 'bin/tcs.mjs'), ...args];
}

// ---------------------------------------------------------------------------------------------
// Processes

interface Proc {
  child: ChildProcessWithoutNullStreams;
  spawnedAt: number;
  /** Resolves with performance.now() when a line of `stream` matches `pattern`. */
  waitLine(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<number>;
  /** Resolves with performance.now() when `count` stdout lines have matched `pattern`. */
  waitCount(pattern: RegExp, count: number): Promise<number>;
  stop(): Promise<void>;
}

function startProc(variant: Variant, args: string[], env: NodeJS.ProcessEnv, cwd: string): Proc {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, argvOf(variant, args), {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    cwd,
    stdio: 'pipe',
  });
  type Watcher = { stream: 'stdout' | 'stderr'; pattern: RegExp; left: number; resolve: (at: number) => void };
  const watchers: Watcher[] = [];
  let exited = false;
  const lastWords: string[] = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    let partial = '';
    child[stream].on('data', (chunk: Buffer) => {
      const at = performance.now();
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (stream === 'stderr' && lastWords.push(line) > 20) lastWords.shift();
        for (const w of [...watchers]) {
          if (w.stream !== stream || !w.pattern.test(line)) continue;
          if (--w.left === 0) {
            watchers.splice(watchers.indexOf(w), 1);
            w.resolve(at);
          }
        }
      }
    });
  }
  const exit = new Promise<void>((resolve) =>
    child.on('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const wait = (stream: 'stdout' | 'stderr', pattern: RegExp, count: number) =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${variant} ${args.join(' ')}: no ${pattern} after ${WAIT_MS / 1000} s`)),
        WAIT_MS,
      );
      void exit.then(() =>
        reject(new Error(`${variant} ${args.join(' ')} exited before ${pattern}:\n${lastWords.join('\n')}`)),
      );
      watchers.push({
        stream,
        pattern,
        left: count,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      });
    });
  return {
    child,
    spawnedAt,
    waitLine: (stream, pattern) => wait(stream, pattern, 1),
    waitCount: (pattern, count) => wait('stdout', pattern, count),
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** VmRSS and VmHWM of a live process, in bytes. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) found.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

function descendantsOf(pid: number): number[] {
  const direct = childrenOf(pid);
  return direct.flatMap((c) => [c, ...descendantsOf(c)]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A temp dir for one process's store, removed afterwards. */
async function inTempDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'tcs-startup-'));
  try {
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function baseEnv(dir: string): NodeJS.ProcessEnv {
  return {
    STORE_URL: `sqlite:${join(dir, 'tcs.db')}`,
    SERVICE_API_KEY: generateKey(),
    RISK_HMAC_SECRET: generateKey(),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
  };
}

// ---------------------------------------------------------------------------------------------
// Measurements

interface ApiTrial {
  listeningMs: number;
  idleRss: number;
}

async function apiTrial(variant: Variant): Promise<ApiTrial> {
  return inTempDir(async (dir) => {
    const proc = startProc(variant, ['api'], baseEnv(dir), dir);
    try {
      const at = await proc.waitLine('stderr', /"msg":"api listening"/);
      await sleep(IDLE_MS);
      return { listeningMs: at - proc.spawnedAt, idleRss: memoryOf(proc.child.pid!).rss };
    } finally {
      await proc.stop();
    }
  });
}

async function tradeStartTrial(variant: Variant): Promise<number> {
  return inTempDir(async (dir) => {
    const proc = startProc(variant, ['trade'], { ...baseEnv(dir), CYCLE_SECONDS: '0.05' }, dir);
    try {
      const at = await proc.waitLine('stdout', /"event":"cycle_end"/);
      return at - proc.spawnedAt;
    } finally {
      await proc.stop();
    }
  });
}

interface LongTrial {
  rss: number;
  hwm: number;
  seconds: number;
}

async function trade1000Trial(variant: Variant): Promise<LongTrial> {
  return inTempDir(async (dir) => {
    const proc = startProc(variant, ['trade'], { ...baseEnv(dir), CYCLE_SECONDS: '0.05' }, dir);
    try {
      const at = await proc.waitCount(/"event":"cycle_end"/, CYCLES);
      return { ...memoryOf(proc.child.pid!), seconds: (at - proc.spawnedAt) / 1000 };
    } finally {
      await proc.stop();
    }
  });
}

interface StartTrial {
  /** Spawn → API listening and first cycle_end, whichever came last. */
  readyMs: number;
  /** Supervisor + its node children (API, trading). */
  nodeRss: number;
  processes: number;
  /** Every descendant, helpers included. */
  allRss: number;
  allProcesses: number;
  perProcess: Record<string, number>;
}

async function startTrial(variant: Variant): Promise<StartTrial> {
  return inTempDir(async (dir) => {
    const proc = startProc(variant, ['start'], { ...baseEnv(dir), CYCLE_SECONDS: '1' }, dir);
    try {
      const [listening, cycled] = await Promise.all([
        proc.waitLine('stderr', /"msg":"api listening"/),
        proc.waitLine('stdout', /"event":"cycle_end"/),
      ]);
      await sleep(IDLE_MS);
      const supervisor = proc.child.pid!;
      const all = [supervisor, ...descendantsOf(supervisor)];
      const roleOf = (pid: number) => {
        if (pid === supervisor) return 'supervisor';
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        const last = argv.filter(Boolean).at(-1);
        return last === 'api' ? 'api' : last === 'trade' ? 'trading' : 'helper';
      };
      const perProcess: Record<string, number> = {};
      let nodeRss = 0;
      let processes = 0;
      let allRss = 0;
      for (const pid of all) {
        const role = roleOf(pid);
        const { rss } = memoryOf(pid);
        perProcess[role] = (perProcess[role] ?? 0) + rss;
        allRss += rss;
        if (role !== 'helper') {
          nodeRss += rss;
          processes++;
        }
      }
      return {
        readyMs: Math.max(listening, cycled) - proc.spawnedAt,
        nodeRss,
        processes,
        allRss,
        allProcesses: all.length,
        perProcess,
      };
    } finally {
      await proc.stop();
    }
  });
}

/** `trials` rounds; in each, every variant once, the order alternating between rounds. */
async function alternate<T>(trials: number, label: string, measure: (v: Variant) => Promise<T>) {
  const out: Record<Variant, T[]> = { before: [], after: [] };
  for (let i = 0; i < trials; i++) {
    for (const variant of i % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
      out[variant].push(await measure(variant));
      console.log(`startup: ${label} ${variant} trial ${i + 1}/${trials} done`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Report

const mib = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1024 ** 2).toFixed(1)} MiB` : 'n/a');
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => percentile(sorted(values), 50);
const change = (before: number, after: number) =>
  Number.isFinite(before) && Number.isFinite(after) ? `${(((after - before) / before) * 100).toFixed(0)} %` : 'n/a';

/** n, p50, min, p90 (nearest rank), max of `values` formatted by `fmt`. */
function spread(values: number[], fmt: (v: number) => string): string[] {
  const s = sorted(values);
  return [
    String(s.length),
    fmt(percentile(s, 50)),
    fmt(s[0] ?? NaN),
    fmt(percentile(s, 90)),
    fmt(s[s.length - 1] ?? NaN),
  ];
}

interface StartupFigures {
  api: Record<Variant, ApiTrial[]>;
  tradeStart: Record<Variant, number[]>;
  trade1000: Record<Variant, LongTrial[]>;
  start: Record<Variant, StartTrial[]>;
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  if (process.platform !== 'linux') throw new Error('startup.bench reads /proc: Linux only');
  // AFTER runs dist/: bring it up to date first (a no-op when nothing changed), as npm start does.
  execFileSync(process.execPath, [join(REPO_ROOT, 'bin/build.mjs'), '--if-stale'], { stdio: 'inherit' });

  const api = await alternate(TRIALS.api, 'tcs api', apiTrial);
  const tradeStart = await alternate(TRIALS.tradeStart, 'tcs trade (first cycle)', tradeStartTrial);
  const trade1000: Record<Variant, LongTrial[]> = { before: [], after: [] };
  for (let i = 0; i < TRIALS.trade1000; i++) {
    const [before, after] = await Promise.all([trade1000Trial('before'), trade1000Trial('after')]);
    trade1000.before.push(before);
    trade1000.after.push(after);
    console.log(`startup: tcs trade ${int(CYCLES)} cycles trial ${i + 1}/${TRIALS.trade1000} done`);
  }
  const start = await alternate(TRIALS.start, 'tcs start', startTrial);
  const figures: StartupFigures = { api, tradeStart, trade1000, start };

  const apiMs = (v: Variant) => api[v].map((t) => t.listeningMs);
  const apiRss = (v: Variant) => api[v].map((t) => t.idleRss);
  const startNode = (v: Variant) => start[v].map((t) => t.nodeRss);
  const apiFaster = 1 - median(apiMs('after')) / median(apiMs('before'));
  const tradeFaster = 1 - median(tradeStart.after) / median(tradeStart.before);
  const startMedian = median(startNode('after'));

  const timeRows = (name: string, values: Record<Variant, number[]>) =>
    VARIANTS.map((v) => [
      name,
      LABELS[v],
      ...spread(values[v], ms),
      v === 'after' ? change(median(values.before), median(values.after)) : '',
    ]);
  const memRows = (name: string, values: Record<Variant, number[]>) =>
    VARIANTS.map((v) => [
      name,
      LABELS[v],
      ...spread(values[v], mib),
      v === 'after' ? change(median(values.before), median(values.after)) : '',
    ]);
  const perRole = (v: Variant, role: string) => start[v].map((t) => t.perProcess[role] ?? 0);

  const result: BenchResult = {
    id: 'startup',
    title: 'Compiled runtime: before/after (start-up time and memory of the tcs processes)',
    command: 'node bin/run-ts.mjs bench/startup.bench.ts',
    method: [
      `Before: \`${COMMANDS.before} <command>\` (the sources through tsx, as tcs ran before the build; under \`start\` the children run the same way). After: \`${COMMANDS.after} <command>\` (dist/ with source maps on; the children run \`node --enable-source-maps dist/src/cli/main.js\`). dist/ is brought up to date before the first trial and not timed.`,
      `Each process: its own SQLite store in a temp dir, fresh keys, HOST=127.0.0.1 PORT=0 LOG_LEVEL=info. Times run from spawn() in this process to the moment the line arrives on the pipe.`,
      `\`tcs api\`: spawn → "api listening" (after the store is open and the port bound), ${TRIALS.api} trials per variant; RSS (VmRSS) after ${IDLE_MS / 1000} s idle.`,
      `\`tcs trade\` (CYCLE_SECONDS=0.05, the lowest allowed; 3 symbols, default strategies): spawn → first \`cycle_end\` event line, ${TRIALS.tradeStart} trials per variant; and VmRSS / VmHWM (peak) at the ${int(CYCLES)}th \`cycle_end\`, ${TRIALS.trade1000} trials per variant, before and after side by side.`,
      `\`tcs start\` (CYCLE_SECONDS=1): once the API listens and the first cycle ended, ${IDLE_MS / 1000} s idle, then the VmRSS of the supervisor and its two node children summed (${TRIALS.start} trials per variant); "all descendants" adds tsx's esbuild helper processes.`,
      'Trials alternate before/after (order flipped every round). Percentiles are nearest-rank; "change" compares medians. MiB = 1024² bytes.',
    ],
    tables: [
      {
        caption: 'Start-up time',
        headers: ['measure', 'variant', 'n', 'p50', 'min', 'p90', 'max', 'change (p50)'],
        rows: [
          ...timeRows('`tcs api` spawn → listening', { before: apiMs('before'), after: apiMs('after') }),
          ...timeRows('`tcs trade` spawn → first cycle_end', tradeStart),
          ...timeRows('`tcs start` spawn → listening and first cycle_end', {
            before: start.before.map((t) => t.readyMs),
            after: start.after.map((t) => t.readyMs),
          }),
        ],
      },
      {
        caption: 'Memory (RSS)',
        headers: ['measure', 'variant', 'n', 'p50', 'min', 'p90', 'max', 'change (p50)'],
        rows: [
          ...memRows(`\`tcs api\` idle (${IDLE_MS / 1000} s after listening)`, {
            before: apiRss('before'),
            after: apiRss('after'),
          }),
          ...memRows(`\`tcs trade\` after ${int(CYCLES)} cycles`, {
            before: trade1000.before.map((t) => t.rss),
            after: trade1000.after.map((t) => t.rss),
          }),
          ...memRows(`\`tcs trade\` peak (VmHWM) over ${int(CYCLES)} cycles`, {
            before: trade1000.before.map((t) => t.hwm),
            after: trade1000.after.map((t) => t.hwm),
          }),
          ...memRows('`tcs start` total: supervisor + api + trading', {
            before: startNode('before'),
            after: startNode('after'),
          }),
          ...memRows('`tcs start` all descendants (helpers too)', {
            before: start.before.map((t) => t.allRss),
            after: start.after.map((t) => t.allRss),
          }),
        ],
      },
      {
        caption: '`tcs start`, per process (p50 of the trials)',
        headers: ['variant', 'supervisor', 'api', 'trading', 'helpers', 'processes (node / all)'],
        rows: VARIANTS.map((v) => [
          LABELS[v],
          mib(median(perRole(v, 'supervisor'))),
          mib(median(perRole(v, 'api'))),
          mib(median(perRole(v, 'trading'))),
          mib(median(perRole(v, 'helper'))),
          `${start[v][0]?.processes ?? 'n/a'} / ${start[v][0]?.allProcesses ?? 'n/a'}`,
        ]),
      },
    ],
    figures: [
      {
        figure: '`tcs api` start-up, spawn → listening (compiled)',
        aim: `≥ ${AIM_FASTER * 100} % faster than through tsx`,
        latest: `${ms(median(apiMs('after')))} p50 (${(apiFaster * 100).toFixed(0)} % faster)`,
        met: Number.isFinite(apiFaster) ? apiFaster >= AIM_FASTER : null,
      },
      {
        figure: '`tcs trade` start-up, spawn → first cycle_end (compiled)',
        aim: `≥ ${AIM_FASTER * 100} % faster than through tsx`,
        latest: `${ms(median(tradeStart.after))} p50 (${(tradeFaster * 100).toFixed(0)} % faster)`,
        met: Number.isFinite(tradeFaster) ? tradeFaster >= AIM_FASTER : null,
      },
      {
        figure: '`tcs start` RSS, supervisor + api + trading (compiled)',
        aim: `< ${AIM_START_MIB} MiB`,
        latest: mib(startMedian),
        met: Number.isFinite(startMedian) ? startMedian < AIM_START_MIB * 1024 ** 2 : null,
      },
    ],
    aims: [
      {
        text: `\`tcs api\` start-up ≥ ${AIM_FASTER * 100} % faster (measured ${(apiFaster * 100).toFixed(0)} %)`,
        met: Number.isFinite(apiFaster) ? apiFaster >= AIM_FASTER : null,
      },
      {
        text: `\`tcs trade\` to first cycle ≥ ${AIM_FASTER * 100} % faster (measured ${(tradeFaster * 100).toFixed(0)} %)`,
        met: Number.isFinite(tradeFaster) ? tradeFaster >= AIM_FASTER : null,
      },
      {
        text: `\`tcs start\` total RSS < ${AIM_START_MIB} MiB, compiled (measured ${mib(startMedian)})`,
        met: Number.isFinite(startMedian) ? startMedian < AIM_START_MIB * 1024 ** 2 : null,
      },
    ],
    notes: [
      `The ${int(CYCLES)}-cycle runs took ${trade1000.after.map((t) => `${t.seconds.toFixed(0)} s`).join(', ')} (after) and ${trade1000.before.map((t) => `${t.seconds.toFixed(0)} s`).join(', ')} (before): ${int(CYCLES)} × 50 ms of waiting plus the cycles.`,
    ],
    seconds: (performance.now() - started) / 1000,
    data: figures,
  };
  printResult(result);
  return result;
}

runDirectly(run);
