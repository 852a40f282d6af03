/**
 * From a control change to the console showing it: the API (createApi on 127.0.0.1, one store per
 * case, SQLite file and Redis) serves the console to Debian's Chromium (playwright-core), signed in
 * with a key. Each trial POSTs /control/pause or /control/resume (alternating) and waits until the
 * page's state banner (`[data-testid="state"]`) carries the new epoch. The moment it changed is taken
 * in the page by a MutationObserver (performance.timeOrigin + now(), the same wall clock as this
 * process on one machine, sub-millisecond), so the figure is POST sent → DOM updated, without the
 * polling of the wait itself. The path it measures: HTTP → store transition → the store's change
 * notification → the API's event hub → SSE frame → the page's stream reader → render.
 * CONSOLE_TRIALS overrides the 200 counted trials per store.
 */
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/support/chromium.js';
import { ms, summarize } from './stats.js';
import type { Summary } from './stats.js';
import { openBenchStore, printResult, runDirectly, startApi } from './support.js';
import type { BenchResult, StoreKind } from './support.js';
import { signInToConsole } from './console-page.js';

const TRIALS = Number(process.env.CONSOLE_TRIALS ?? 200);
const WARMUP = 10;
const TRIAL_TIMEOUT_MS = 5_000;
const AIM_P99_MS = 250;

interface StoreFigures {
  store: StoreKind;
  trials: number;
  /** POST sent → the banner shows the new epoch. */
  toPage: Summary;
  /** POST sent → HTTP response received. */
  http: Summary;
}

const wallNow = () => performance.timeOrigin + performance.now();

/**
 * Records, in the page, when the banner first showed each epoch (window.__epochSeenAt). Page code is
 * a string: this project's TypeScript has no DOM types, and the page needs none of this file's.
 */
const WATCH_BANNER = `(() => {
  const seen = {};
  window.__epochSeenAt = seen;
  const note = () => {
    const epoch = document.querySelector('[data-testid="state"]')?.getAttribute('data-epoch');
    if (epoch && !(epoch in seen)) seen[epoch] = performance.timeOrigin + performance.now();
  };
  new MutationObserver(note).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['data-epoch'],
  });
  note();
})()`;

async function seenAt(page: Page, epoch: number): Promise<number> {
  // A function, not a string: the console's CSP forbids eval, which a string predicate needs.
  const handle = await page.waitForFunction(
    (e) => (globalThis as unknown as { __epochSeenAt: Record<string, number> }).__epochSeenAt[e] ?? null,
    String(epoch),
    { timeout: TRIAL_TIMEOUT_MS, polling: 5 },
  );
  return (await handle.jsonValue()) as number;
}

async function measureStore(kind: StoreKind, page: Page): Promise<StoreFigures> {
  const t = await openBenchStore(kind);
  const api = await startApi(t.store);
  try {
    await signInToConsole(page, api.baseUrl, api.key);
    await page.evaluate(WATCH_BANNER);
    const toPage: number[] = [];
    const http: number[] = [];
    for (let i = 0; i < WARMUP + TRIALS; i++) {
      const path = i % 2 === 0 ? '/control/pause' : '/control/resume';
      const sentAt = wallNow();
      const res = await fetch(`${api.baseUrl}${path}`, {
        method: 'POST',
        headers: { ...api.auth, 'content-type': 'application/json' },
        body: '{}',
      });
      const answeredAt = wallNow();
      const body = (await res.json()) as { epoch?: number };
      if (res.status !== 200 || typeof body.epoch !== 'number') {
        throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
      }
      const shownAt = await seenAt(page, body.epoch);
      if (i >= WARMUP) {
        toPage.push(shownAt - sentAt);
        http.push(answeredAt - sentAt);
      }
    }
    return { store: kind, trials: toPage.length, toPage: summarize(toPage), http: summarize(http) };
  } finally {
    await api.close();
    await t.cleanup();
  }
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const browser = await launchChromium('the console latency benchmark');
  const figures: StoreFigures[] = [];
  try {
    for (const kind of ['sqlite', 'redis'] as const) {
      const page = await browser.newPage();
      try {
        figures.push(await measureStore(kind, page));
      } finally {
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
  const row = (f: StoreFigures, what: string, s: Summary) => [
    f.store,
    what,
    String(s.n),
    ms(s.p50),
    ms(s.p90),
    ms(s.p99),
    ms(s.max),
  ];
  const result: BenchResult = {
    id: 'console-latency',
    title: 'Operator console: control change → page',
    command: 'node bin/run-ts.mjs bench/console-latency.bench.ts',
    method: [
      `${TRIALS} counted trials per store after ${WARMUP} warm-up ones, alternating POST /control/pause and /control/resume.`,
      'Time from sending the POST to the state banner showing the new epoch, taken in the page by a MutationObserver.',
      'One API process (createApi, 127.0.0.1) and one headless Debian Chromium page signed in to the console.',
    ],
    tables: [
      {
        headers: ['store', 'interval', 'n', 'p50', 'p90', 'p99', 'max'],
        rows: figures.flatMap((f) => [row(f, 'POST → page shows it', f.toPage), row(f, 'POST → HTTP answer', f.http)]),
      },
    ],
    figures: figures.map((f) => ({
      figure: `control change → console page p99 (${f.store})`,
      aim: `< ${AIM_P99_MS} ms`,
      latest: ms(f.toPage.p99),
      met: f.toPage.p99 < AIM_P99_MS,
    })),
    aims: figures.map((f) => ({
      text: `${f.store}: p99 control change → page under ${AIM_P99_MS} ms on loopback (${ms(f.toPage.p99)})`,
      met: f.toPage.p99 < AIM_P99_MS,
    })),
    notes: [],
    seconds: (performance.now() - started) / 1000,
    data: figures,
  };
  printResult(result);
  return result;
}

runDirectly(run);
