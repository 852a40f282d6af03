/**
 * `tcs data download` tells what it is doing before it does it, and fails in one line that says why:
 * the plan (symbols, exchange, range, destination) first, then the host it contacts, then progress;
 * against a closed loopback port, a loopback server answering 451 (Binance's answer to a US
 * address) and one answering 503, a single line naming the host and the reason, with no retry of
 * what cannot heal and a real retry (a new request each time) of what can. Loopback only.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeExchange } from '../support/fake-exchange/server.js';
import type { FakeExchange } from '../support/fake-exchange/server.js';
import { closedPort } from '../support/ports.js';
import { exitWithin, startTcs } from '../support/processes.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-download-contact-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ARGS = ['--exchange', 'binanceusdm', '--symbols', 'BTCUSDT,ETHUSDT', '--from', '2025-01-01'];

async function download(baseUrl: string, out: string, to = '2025-01-01T01:00') {
  const proc = startTcs(
    ['data', 'download', ...ARGS, '--to', to, '--out', out],
    { LIVE_EXCHANGE_URL: baseUrl, TCS_TEST_EXCHANGE_RATE_LIMIT_MS: '1' },
    root,
  );
  const { code } = await exitWithin(proc, 60_000);
  return { code, lines: proc.stderr().trimEnd().split('\n'), stdout: proc.stdout() };
}

/** A loopback HTTP server answering every request with `status`, counting them. */
async function answering(status: number): Promise<{ url: string; requests: () => number; server: Server }> {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests += 1;
    res.writeHead(status, { 'content-type': 'text/html' }).end('<html>no</html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, requests: () => requests, server };
}

describe('tcs data download says what it does', () => {
  let fake: FakeExchange;
  beforeAll(async () => {
    fake = await startFakeExchange({ seed: 5 });
  });
  afterAll(() => fake.stop());

  it('first the plan, then the host it contacts, then progress', async () => {
    const out = join(root, 'ok');
    const run = await download(fake.url, out);
    expect(run.code, run.lines.join('\n')).toBe(0);
    expect(run.lines[0]).toBe(
      `download: BTCUSDT, ETHUSDT from binanceusdm's public API (ccxt, no keys) through LIVE_EXCHANGE_URL ${fake.url}: ` +
        '1m candles from 2025-01-01T00:00:00.000Z to 2025-01-01T01:00:00.000Z (up to 60 a symbol) ' +
        `and funding rates for perpetuals, into ${out}`,
    );
    expect(run.lines[1]).toBe(`download: contacting ${fake.url} (/fapi/v1/exchangeInfo)`);
    // Each origin is named once, however many requests go to it.
    expect(run.lines.filter((l) => l.includes('contacting'))).toHaveLength(1);
    expect(run.lines).toContain('download: BTCUSDT candles 60/60 (100%)');
    expect(run.lines).toContain('download: ETHUSDT candles 60/60 (100%)');
  });
});

describe('tcs data download fails in one line that says why', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it('a closed port: connection refused, not retried, nothing written', async () => {
    const port = await closedPort();
    const out = join(root, 'refused');
    const run = await download(`http://127.0.0.1:${port}`, out);
    expect(run.code).toBe(1);
    expect(run.lines.at(-1)).toBe(
      `tcs data download: failed loading binanceusdm's markets: 127.0.0.1:${port} refused the connection ` +
        '(ECONNREFUSED): nothing listens there',
    );
    expect(run.lines.filter((l) => l.includes('retrying'))).toEqual([]);
    expect(run.lines).toHaveLength(3); // the plan, the host, the failure
    expect(existsSync(out)).toBe(false);
  });

  it('HTTP 451: the refusal named, asked once', async () => {
    const refusing = await answering(451);
    server = refusing.server;
    const run = await download(refusing.url, join(root, 'refused-451'));
    expect(run.code).toBe(1);
    expect(run.lines.at(-1)).toMatch(
      /^tcs data download: failed loading binanceusdm's markets: 127\.0\.0\.1:\d+ answered HTTP 451 Unavailable For Legal Reasons: the exchange refuses this address or region/,
    );
    expect(refusing.requests()).toBe(1);
  });

  it('HTTP 503: each retry said and really sent, then the failure', async () => {
    const down = await answering(503);
    server = down.server;
    const run = await download(down.url, join(root, 'down-503'));
    expect(run.code).toBe(1);
    expect(down.requests()).toBe(3);
    const retries = run.lines.filter((l) => l.includes('retrying'));
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatch(
      /^download: loading binanceusdm's markets: 127\.0\.0\.1:\d+ answered HTTP 503 Service Unavailable; retrying in \d+\.\d s \(attempt 2 of 3\)$/,
    );
    expect(run.lines.at(-1)).toMatch(/failed loading binanceusdm's markets: .* answered HTTP 503 Service Unavailable$/);
  });
});
