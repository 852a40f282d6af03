/**
 * The recent fills, newest first: every fill the audit trail records (at submission, and between
 * cycles: resting orders, exchange stops), read at sign-in (GET /reports/fills) and followed live
 * through the stream's `fill` events (console/lib/fills.ts).
 */
import { money, qty, utc } from '../lib/format.js';
import type { FillRow } from '../lib/fills.js';

/** The newest fills shown; the page keeps more for the closed trades. */
const SHOWN = 50;

export function Fills({ fills: all }: { fills: FillRow[] }) {
  const fills = all.slice(0, SHOWN);
  return (
    <section class="panel fills" aria-labelledby="fills-title">
      <h2 id="fills-title">Recent fills</h2>
      <p class="note">
        Every recorded fill: orders filled when submitted, and resting orders or exchange stops filled later.
      </p>
      <table data-testid="fills">
        <caption>Fills ({fills.length})</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Cycle</th>
            <th scope="col">Symbol</th>
            <th scope="col">Side</th>
            <th scope="col">Qty</th>
            <th scope="col">Price</th>
            <th scope="col">Notional</th>
          </tr>
        </thead>
        <tbody>
          {fills.length === 0 ? (
            <tr>
              <td colSpan={7}>No fill yet.</td>
            </tr>
          ) : (
            fills.map((f) => (
              <tr key={f.key} data-testid="fill-row">
                <td>{utc(f.at)}</td>
                <td>{f.cycle ?? '—'}</td>
                <th scope="row">{f.symbol ?? '—'}</th>
                <td>{f.side ?? '—'}</td>
                <td>{qty(f.qty)}</td>
                <td>{money(f.price)}</td>
                <td>{money(f.price === null ? null : f.price * f.qty)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}
