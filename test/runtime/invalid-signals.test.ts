/**
 * Issue 19: the documented signal contract, enforced on the real trading system with a real user
 * module (test/fixtures/strategies/impostor.js). Before, its 'badagent' signal traded (and got its
 * own PnL row) and its ETHUSDT signal from a BTCUSDT analysis traded. Now neither reaches the
 * arbiter: nothing is submitted, each is counted in tcs_trading_invalid_signals_total, warned on
 * stderr once per agent and cycle, and listed in the decision entry.
 */
import { fileURLToPath } from 'node:url';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

const IMPOSTOR = fileURLToPath(new URL('../fixtures/strategies/impostor.js', import.meta.url));

let t: TestTrading | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('signals that break the contract (issue 19)', () => {
  it('never trade, and are counted, warned once per agent and cycle, and recorded', async () => {
    const log: Array<Record<string, unknown>> = [];
    t = await openTestTrading(
      'sqlite',
      { STRATEGIES: IMPOSTOR, SYMBOLS: 'BTCUSDT,SOLUSDT', ORDER_STYLE: 'market' },
      undefined,
      { log: pino({ level: 'info' }, { write: (line: string) => void log.push(JSON.parse(line)) }) },
    );
    await t.advance(60_000); // cycles 1 and 2
    expect(t.events('signal_generated')).toEqual([]);
    expect(t.events('order_submitted')).toEqual([]);
    const families = parsePrometheusTextFormat(await t.system.metrics.text());
    const counted = (families.find((f) => f.name === 'tcs_trading_invalid_signals_total')?.metrics ?? []) as Array<{
      labels: Record<string, string>;
      value: string;
    }>;
    expect(counted.find((m) => m.labels.agent === 'impostor')?.value).toBe('4');
    // The signal funnel (issue 34) counts them as well, by outcome and reason, from the cycles' records.
    const funnel = (families.find((f) => f.name === 'tcs_trading_signals_total')?.metrics ?? []) as typeof counted;
    expect(funnel.map((m) => [m.labels.agent, m.labels.outcome, m.labels.reason, m.value])).toEqual([
      ['impostor', 'invalid', 'INVALID_SIGNAL', '4'],
    ]);
    const warnings = log.filter((l) => typeof l.msg === 'string' && (l.msg as string).includes('INVALID_SIGNAL'));
    expect(warnings.map((w) => [w.agent, w.invalid, w.symbol])).toEqual([
      ['impostor', 2, 'BTCUSDT'],
      ['impostor', 2, 'BTCUSDT'],
    ]);
    expect(warnings[0]!.msg).toContain('signal names agent "badagent", not "impostor"');
  });
});
