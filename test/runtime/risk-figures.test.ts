/**
 * Risk figures an operator can read, through the real actor system: each decision entry shows, per
 * order, the worst-case figures before and after (per-symbol and net exposure, leverage, drawdown,
 * margin used), the resting orders counted and the allocator's sizing; /metrics (the trading
 * registry) has margin used and resting-order exposure.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

const ALTERNATING = fileURLToPath(new URL('../fixtures/strategies/btc-alternating.ts', import.meta.url));

describe('risk figures in the decision entry and /metrics', () => {
  let t: TestTrading | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('shows the projected figures, the resting orders counted and the sizing, and gauges margin', async () => {
    // Passive orders rest at the venue, so later cycles have resting orders to count.
    t = await openTestTrading('sqlite', { STRATEGIES: ALTERNATING, ORDER_STYLE: 'passive', RISK_FRACTION: '0.2' });
    await t.advance(t.config.cycleMs);
    await t.advance(t.config.cycleMs);
    const decisions = await t.store.events.query({ kind: 'decision', limit: 100 });
    const risk = decisions.flatMap((d) => (d.body as { risk: Array<Record<string, unknown>> }).risk);
    expect(risk.length).toBeGreaterThan(0);
    for (const r of risk) {
      for (const when of ['before', 'after'] as const) {
        expect(Object.keys(r[when] as object).sort()).toEqual(
          ['drawdown', 'leverage', 'margin_used', 'symbol_exposure', 'total_exposure'].sort(),
        );
      }
      expect(typeof r.resting_orders_counted).toBe('number');
    }
    // A later order counted the resting ones; an order that grows a symbol's exposure grows the margin.
    const counted = risk.find((r) => (r.resting_orders_counted as number) > 0);
    expect(counted).toBeDefined();
    type Figures = { margin_used: number; symbol_exposure: number };
    const growing = risk.filter(
      (r) => (r.after as Figures).symbol_exposure > (r.before as Figures).symbol_exposure + 1e-9,
    );
    expect(growing.length).toBeGreaterThan(0);
    for (const r of growing)
      expect((r.after as Figures).margin_used).toBeGreaterThan((r.before as Figures).margin_used);
    const proposals = decisions.flatMap(
      (d) => (d.body as { proposals: Array<{ sizing: Record<string, unknown> | null }> }).proposals,
    );
    expect(proposals.some((p) => p.sizing !== null && 'scaled_by' in p.sizing && 'target_qty' in p.sizing)).toBe(true);

    const text = await t.system.metrics.text();
    const gauge = (name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(gauge('tcs_trading_resting_order_exposure')).toBeGreaterThan(0);
    expect(gauge('tcs_trading_margin_used')).toBeGreaterThan(0);
  });
});
