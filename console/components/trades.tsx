/**
 * Closed trades (issue 35): each round trip of the fills read from the decision log with its PnL,
 * and the PnL summed per symbol (console/lib/trades.ts). Computed from the fills the page already
 * holds, so it follows the stream's fills too.
 */
import { useMemo } from 'preact/hooks';
import { money, qty, signedMoney, utc } from '../lib/format.js';
import type { FillRow } from '../lib/fills.js';
import { closedTrades } from '../lib/trades.js';

/** Shown at most; the per-symbol sums count every trade. */
const SHOWN = 50;

export function Trades({ fills }: { fills: FillRow[] }) {
  const { trades, bySymbol, total } = useMemo(() => closedTrades(fills), [fills]);
  return (
    <section class="panel trades" aria-labelledby="trades-title">
      <h2 id="trades-title">Closed trades</h2>
      <p class="note">
        Round trips (flat to flat) of the fills at submission in the decision log read since sign-in; PnL before fees
        (the log has no fee). A resting order's later fill is not in the log, so a trade it closed is not listed.
      </p>
      <table data-testid="trades-by-symbol">
        <caption>PnL per symbol</caption>
        <thead>
          <tr>
            <th scope="col">Symbol</th>
            <th scope="col">Trades</th>
            <th scope="col">Won</th>
            <th scope="col">PnL</th>
          </tr>
        </thead>
        <tbody>
          {bySymbol.length === 0 ? (
            <tr>
              <td colSpan={4}>No closed trade yet.</td>
            </tr>
          ) : (
            bySymbol.map((s) => (
              <tr key={s.symbol} data-testid="symbol-pnl-row">
                <th scope="row">{s.symbol}</th>
                <td>{s.trades}</td>
                <td>{s.wins}</td>
                <td>{signedMoney(s.pnl)}</td>
              </tr>
            ))
          )}
        </tbody>
        {bySymbol.length > 1 && (
          <tfoot>
            <tr data-testid="trades-total">
              <th scope="row">All</th>
              <td>{total.trades}</td>
              <td>{total.wins}</td>
              <td>{signedMoney(total.pnl)}</td>
            </tr>
          </tfoot>
        )}
      </table>
      <table data-testid="trades">
        <caption>
          Trades ({trades.length > SHOWN ? `${SHOWN} newest of ${trades.length}` : trades.length}), newest exit first
        </caption>
        <thead>
          <tr>
            <th scope="col">Symbol</th>
            <th scope="col">Side</th>
            <th scope="col">Qty</th>
            <th scope="col">Entry</th>
            <th scope="col">Exit</th>
            <th scope="col">Entry price</th>
            <th scope="col">Exit price</th>
            <th scope="col">Held</th>
            <th scope="col">PnL</th>
          </tr>
        </thead>
        <tbody>
          {trades.length === 0 ? (
            <tr>
              <td colSpan={9}>No closed trade yet.</td>
            </tr>
          ) : (
            trades.slice(0, SHOWN).map((t) => (
              <tr key={`${t.symbol}:${t.exit_time}`} data-testid="trade-row">
                <th scope="row">{t.symbol}</th>
                <td>{t.side}</td>
                <td>{qty(t.qty)}</td>
                <td>{utc(t.entry_time)}</td>
                <td>{utc(t.exit_time)}</td>
                <td>{money(t.entry_price)}</td>
                <td>{money(t.exit_price)}</td>
                <td>{t.duration_human}</td>
                <td>{signedMoney(t.pnl)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}
