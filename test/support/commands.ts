/** Valid command payloads for tests (src/domain/commands.ts): the queue refuses any other. */
import type { CommandPayload } from '../../src/domain/commands.js';

export function cancelPayload(symbols: readonly string[] = ['BTCUSDT'], actor = 'test'): CommandPayload<'cancel_all'> {
  return { instructions: symbols.map((symbol) => ({ tool: 'cancel_all_orders', symbol })), actor };
}

export function killCancelsPayload(
  symbols: readonly string[] = ['BTCUSDT'],
  reason = 'test',
): CommandPayload<'kill_cancels'> {
  return { ...cancelPayload(symbols), reason };
}

/** `prepared` as the API would have prepared it; the trading process re-caps it to the live position. */
export function deleveragePayload(symbol: string, reducePct: number, qty = 1): CommandPayload<'deleverage'> {
  return {
    symbol,
    reduce_pct: reducePct,
    prepared: { symbol, side: 'SELL', qty, type: 'market', reduce_only: true },
    actor: 'test',
  };
}
