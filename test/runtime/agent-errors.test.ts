/**
 * A strategy that throws is seen (issue 19), through the real trading system with a real user
 * strategy module (test/fixtures/strategies/throwing.js) on a SimulatedClock: one `agent_error` line
 * per symbol and cycle with exactly its fields, a warning on stderr at most once per agent per
 * minute of the injected clock that says how many were not logged, the counter in the metrics text
 * the API merges into /metrics, /health `degraded` naming the agent while it keeps failing (its last
 * 3 analyses) and `ok` again once it stops, and the decision entry's `agent_errors`.
 */
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterEach, describe, expect, it } from 'vitest';
import { healthChecker } from '../../src/api/health.js';
import { HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import { readDocument } from '../../src/ports/documents.js';
import { ALWAYS_LONG, openTestTrading, START } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

const THROWING = fileURLToPath(new URL('../fixtures/strategies/throwing.js', import.meta.url));

/** A pino logger whose lines land in `lines`, parsed (what stderr would carry). */
function capturedLog(lines: Array<Record<string, unknown>>) {
  return pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
}

async function agentErrorCount(t: TestTrading, agent: string): Promise<number | undefined> {
  const families = parsePrometheusTextFormat(await t.system.metrics.text());
  const family = families.find((f) => f.name === 'tcs_trading_agent_errors_total');
  const metric = (family?.metrics as Array<{ labels: Record<string, string>; value: string }> | undefined)?.find(
    (m) => m.labels.agent === agent,
  );
  return metric === undefined ? undefined : Number(metric.value);
}

describe('a strategy that throws', () => {
  let t: TestTrading | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('is an agent_error line per symbol and cycle, a warning per minute with the count not logged, a counter', async () => {
    const log: Array<Record<string, unknown>> = [];
    // 20 s cycles: cycles at 0, 20, … 120 s of the injected clock, two symbols each.
    t = await openTestTrading('sqlite', { STRATEGIES: `${ALWAYS_LONG},${THROWING}`, CYCLE_SECONDS: '20' }, undefined, {
      log: capturedLog(log),
    });
    for (let i = 0; i < 6; i++) await t.advance(20_000);

    const errors = t.events('agent_error');
    expect(errors).toHaveLength(14);
    expect(errors[0]).toEqual({
      event: 'agent_error',
      agent: 'throwing',
      symbol: 'BTCUSDT',
      message: 'no model for BTCUSDT',
    });
    expect(Object.keys(errors[0]!)).toEqual(['event', 'agent', 'symbol', 'message']);
    expect(errors.map((e) => e.symbol)).toEqual(Array.from({ length: 7 }, () => ['BTCUSDT', 'ETHUSDT']).flat());
    // The other strategy goes on trading beside it.
    expect(t.events('order_submitted').length).toBeGreaterThan(0);

    // One warning at 0 s, 60 s and 120 s; the first error of each minute is logged, the rest counted.
    const warnings = log.filter((l) => l.level === 40);
    expect(warnings.map((w) => [w.agent, w.symbol, w.suppressed])).toEqual([
      ['throwing', 'BTCUSDT', 0],
      ['throwing', 'BTCUSDT', 5],
      ['throwing', 'BTCUSDT', 5],
    ]);
    expect(warnings[1]!.msg).toBe(
      'strategy throwing threw on BTCUSDT: no model for BTCUSDT (one warning per strategy per 60 s; every error is an agent_error event line; 5 more since its last warning)',
    );
    expect(warnings.filter((w) => Object.hasOwn(w, 'msg')).length).toBe(3);

    expect(await agentErrorCount(t, 'throwing')).toBe(14);
    expect(await agentErrorCount(t, 'btc_always_long')).toBe(0);

    // The decision entries keep the errors as before: "agent: SYMBOL: message".
    const [last] = await t.store.events.query({ kind: 'decision', limit: 1 });
    expect((last!.body as { agent_errors: string[] }).agent_errors).toEqual([
      'throwing: BTCUSDT: no model for BTCUSDT',
      'throwing: ETHUSDT: no model for ETHUSDT',
    ]);
  });

  it('makes /health degraded, naming the agent, while it keeps failing, and ok once it stops', async () => {
    // It throws on its first 4 analyses: cycles 1 and 2 (two symbols each), then runs clean.
    t = await openTestTrading('sqlite', {
      STRATEGIES: `${ALWAYS_LONG},${THROWING}`,
      STRATEGY_PARAMS: JSON.stringify({ [THROWING]: { failFor: 4 } }),
      CYCLE_SECONDS: '20',
    });
    const health = healthChecker(t.store, t.clock);
    const check = async () => (await health.check()).body;

    const first = await check();
    expect(first.status).toBe('degraded');
    expect(first.components.trading_process.status).toBe('ok');
    expect(first.components.strategies).toEqual({
      status: 'failing',
      failing: [
        {
          agent: 'throwing',
          since: new Date(START).toISOString(),
          last_error_at: new Date(START).toISOString(),
          errors: 2,
          symbol: 'ETHUSDT',
          message: 'no model for ETHUSDT',
        },
      ],
    });
    await t.advance(20_000); // cycle 2: fails again
    expect((await check()).components.strategies.failing[0]).toMatchObject({ agent: 'throwing', errors: 4 });
    await t.advance(20_000); // cycle 3: clean, but cycle 2 is one of the last 3
    await t.advance(20_000); // cycle 4: clean, cycle 2 still in the window
    expect((await check()).status).toBe('degraded');
    await t.advance(20_000); // cycle 5: three clean analyses in a row
    const recovered = await check();
    expect(recovered.status).toBe('ok');
    expect(recovered.components.strategies).toEqual({ status: 'ok', failing: [] });
    expect((await readDocument(t.store.kv, HEARTBEAT_KEY))?.failingAgents).toEqual([]);
    expect(t.events('agent_error')).toHaveLength(4);
  });

  it('errors that persist are one agent_failing entry, and their end one agent_recovered (what the notifier tells)', async () => {
    // failFor 8: analyses of 2 symbols, so it throws in cycles 1–4 and runs clean from cycle 5.
    t = await openTestTrading('sqlite', {
      STRATEGIES: `${ALWAYS_LONG},${THROWING}`,
      STRATEGY_PARAMS: JSON.stringify({ [THROWING]: { failFor: 8 } }),
      CYCLE_SECONDS: '20',
    });
    const spells = async () =>
      (await t!.store.events.query({ limit: 100 }))
        .filter((e) => e.kind === 'agent_failing' || e.kind === 'agent_recovered')
        .reverse();
    await t.advance(20_000); // cycle 2 (the first ran at start): 2 failing analyses, not told yet
    expect(await spells()).toEqual([]);
    await t.advance(20_000); // cycle 3: its third failing analysis in a row
    const [failing] = await spells();
    expect(failing).toMatchObject({
      kind: 'agent_failing',
      body: { agent: 'throwing', since: new Date(START).toISOString(), errors: 6, symbol: 'ETHUSDT' },
    });
    for (let i = 0; i < 8; i++) await t.advance(20_000);
    expect((await spells()).map((e) => e.kind)).toEqual(['agent_failing', 'agent_recovered']);
    expect((await spells())[1]!.body).toMatchObject({ agent: 'throwing', errors: 8 });
  });
});
