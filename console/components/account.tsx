/**
 * The account as the trading process last published it: NAV, the PnL since the account started
 * (NAV now − its starting NAV) and the risk figures beside it, the positions and the resting
 * orders. Refreshed on stream events (cycles, fills, commands).
 */
import { money, pct, qty, ratio, signedMoney, utc } from '../lib/format.js';
import type { Account as AccountData } from '../lib/types.js';

/** +1,234.50 (+1.23 %): NAV now − the NAV the account started from, and that as a share of it. */
function sinceStart(pnl: number | null | undefined, start: number | null | undefined): string {
  if (pnl === null || pnl === undefined || !start) return signedMoney(pnl);
  const share = pct(Math.abs(pnl) / start);
  return `${signedMoney(pnl)} (${pnl > 0 ? '+' : pnl < 0 ? '−' : ''}${share})`;
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div class="figure">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

export function Account({
  account,
  orphaned = new Set(),
}: {
  account: AccountData | null;
  /** Symbols no configured strategy closes (/health's positions component). */
  orphaned?: ReadonlySet<string>;
}) {
  const positions = account?.positions ?? [];
  const orders = account?.open_orders ?? [];
  return (
    <section class="panel account" aria-labelledby="account-title">
      <h2 id="account-title">Account</h2>
      <p class="note">Published {utc(account?.published_at)} by the trading process.</p>
      <dl class="figures">
        <Figure label="NAV" value={money(account?.nav)} testId="nav" />
        <Figure
          label="PnL since start"
          value={sinceStart(account?.pnl_since_start, account?.starting_nav)}
          testId="pnl-since-start"
        />
        <Figure label="Starting NAV" value={money(account?.starting_nav)} testId="starting-nav" />
        <Figure label="Peak NAV" value={money(account?.peak_nav)} />
        <Figure label="Drawdown" value={pct(account?.drawdown, 3)} testId="drawdown" />
        <Figure label="Leverage (gross / NAV)" value={ratio(account?.leverage)} testId="leverage" />
        <Figure label="Gross exposure" value={money(account?.gross_exposure)} />
        <Figure label="Margin used" value={money(account?.margin_used)} testId="margin" />
        <Figure label="Unrealized PnL" value={signedMoney(account?.unrealized_pnl)} />
        <Figure label="Realized PnL" value={signedMoney(account?.realized_pnl)} />
      </dl>
      <table data-testid="positions">
        <caption>Positions ({positions.length})</caption>
        <thead>
          <tr>
            <th scope="col">Symbol</th>
            <th scope="col">Qty</th>
            <th scope="col">Entry</th>
            <th scope="col">Mark</th>
            <th scope="col">Notional</th>
            <th scope="col">Unrealized</th>
          </tr>
        </thead>
        <tbody>
          {positions.length === 0 ? (
            <tr>
              <td colSpan={6}>No open position.</td>
            </tr>
          ) : (
            positions.map((p) => (
              <tr key={p.symbol}>
                <th scope="row">
                  {p.symbol}
                  {orphaned.has(p.symbol) && (
                    <span
                      class="orphaned"
                      data-testid={`orphaned-${p.symbol}`}
                      title="no configured strategy closes it"
                    >
                      {' '}
                      orphaned
                    </span>
                  )}
                </th>
                <td>{qty(p.qty)}</td>
                <td>{money(p.entry_price)}</td>
                <td>{money(p.mark_price)}</td>
                <td>{money(p.notional)}</td>
                <td>{signedMoney(p.unrealized_pnl)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <table data-testid="orders">
        <caption>Resting orders ({orders.length})</caption>
        <thead>
          <tr>
            <th scope="col">Symbol</th>
            <th scope="col">Side</th>
            <th scope="col">Qty</th>
            <th scope="col">Filled</th>
            <th scope="col">Limit</th>
            <th scope="col">Reduce-only</th>
            <th scope="col">Placed</th>
          </tr>
        </thead>
        <tbody>
          {orders.length === 0 ? (
            <tr>
              <td colSpan={7}>No resting order.</td>
            </tr>
          ) : (
            orders.map((o) => (
              <tr key={o.client_order_id} data-testid="order-row">
                <th scope="row">{o.symbol}</th>
                <td>{o.side}</td>
                <td>{qty(o.qty)}</td>
                <td>{qty(o.filled_qty)}</td>
                <td>{money(o.limit_price)}</td>
                <td>{o.reduce_only ? 'yes' : 'no'}</td>
                <td>{utc(o.created_at)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}
