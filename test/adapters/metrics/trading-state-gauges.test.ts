/**
 * Issue 30, finding 9: during a trader halt `tcs_trading_state{state="running"}` said 1. The state
 * gauge now derives from the control state and the halt together (a kill outranks a halt, a halt
 * outranks running and paused), and `tcs_trading_halt{reason}` is 1 for the current halt only.
 */
import { describe, expect, it } from 'vitest';
import { TradingMetrics } from '../../../src/adapters/metrics/trading-metrics.js';
import { eventLine } from '../../../src/domain/event-lines.js';

async function series(metrics: TradingMetrics, name: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const line of (await metrics.text()).split('\n')) {
    const match = line.match(new RegExp(`^${name}\\{(?:state|reason)="([a-z_]+)"[^}]*\\} (\\d+)$`));
    if (match) found[match[1]!] = Number(match[2]);
  }
  return found;
}

describe('the trading state and halt gauges', () => {
  it('say halted while a halt lasts, killed above all, and the halt reason of the moment', async () => {
    const metrics = new TradingMetrics();
    metrics.observe(eventLine.controlChanged('running', 1));
    expect(await series(metrics, 'tcs_trading_state')).toMatchObject({ running: 1, halted: 0 });

    metrics.observe(eventLine.tradingHalted('control_plane_lost'));
    expect(await series(metrics, 'tcs_trading_state')).toMatchObject({ running: 0, paused: 0, halted: 1 });
    expect(await series(metrics, 'tcs_trading_halt')).toEqual({ control_plane_lost: 1 });

    metrics.observe(eventLine.tradingHalted('store_write_refused'));
    expect(await series(metrics, 'tcs_trading_halt')).toEqual({ control_plane_lost: 0, store_write_refused: 1 });

    metrics.observe(eventLine.controlChanged('killed', 2));
    expect(await series(metrics, 'tcs_trading_state')).toMatchObject({ killed: 1, halted: 0, running: 0 });

    metrics.observe(eventLine.tradingHaltEnded());
    expect(await series(metrics, 'tcs_trading_halt')).toEqual({ control_plane_lost: 0, store_write_refused: 0 });
    expect(await series(metrics, 'tcs_trading_state')).toMatchObject({ killed: 1, halted: 0 });
  });
});
