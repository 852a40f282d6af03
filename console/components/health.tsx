/**
 * Health of each component (store, event store, trading process, the risk engine's trading state,
 * the venue, positions, the market data's age)
 * as GET /health reports it, kept current by the stream's `health` events, and the audit chain's
 * verification, re-run on request.
 */
import { useState } from 'preact/hooks';
import type { ConsoleState } from '../use-console.js';
import { auditLine } from '../lib/audit-line.js';
import { utc } from '../lib/format.js';
import { riskRow } from '../lib/risk-state.js';
import { venueRow } from '../lib/venue-drift.js';
import { positionsRow } from '../lib/orphaned.js';
import { marketDataRow } from '../lib/market-data.js';

function Row({ name, status, detail }: { name: string; status: string; detail: string }) {
  return (
    <tr class={`status-${status}`}>
      <th scope="row">{name}</th>
      <td data-testid={`health-${name.replace(/\s+/g, '-')}`}>{status}</td>
      <td>{detail}</td>
    </tr>
  );
}

export function HealthPanel({ c }: { c: ConsoleState }) {
  const [checking, setChecking] = useState(false);
  const h = c.health;
  const store = h?.components.store;
  const events = h?.components.event_store;
  const trading = h?.components.trading_process;
  const risk = riskRow(h?.components.risk);
  const venue = venueRow(h?.components.venue);
  const positions = positionsRow(h?.components.positions);
  const marketData = marketDataRow(h?.components.market_data);
  const audit = c.audit;
  const verify = async () => {
    setChecking(true);
    await c.verifyAudit();
    setChecking(false);
  };
  return (
    <section class="panel health" aria-labelledby="health-title">
      <h2 id="health-title">Health</h2>
      <p>
        Overall <strong data-testid="health-status">{h?.status ?? '—'}</strong>, checked {utc(h?.checked_at)}
      </p>
      <table>
        <caption>Components</caption>
        <thead>
          <tr>
            <th scope="col">Component</th>
            <th scope="col">Status</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          <Row
            name="store"
            status={store?.status ?? '—'}
            detail={`${store?.kind ?? ''}${store?.latency_ms != null ? `, ${store.latency_ms} ms` : ''}${store?.reason ? `, ${store.reason}` : ''}`}
          />
          <Row name="event store" status={events?.status ?? '—'} detail={`${events?.entries ?? '—'} entries`} />
          <Row
            name="trading process"
            status={trading?.status ?? '—'}
            detail={`heartbeat ${trading?.heartbeat_age_ms ?? '—'} ms old, last cycle ${trading?.last_cycle ?? '—'}, ${trading?.mode ?? ''}${trading?.reason ? `, ${trading.reason}` : ''}`}
          />
          <Row name="risk engine" status={risk.status} detail={risk.detail} />
          <Row name="venue" status={venue.status} detail={venue.detail} />
          <Row name="positions" status={positions.status} detail={positions.detail} />
          <Row name="market data" status={marketData.status} detail={marketData.detail} />
        </tbody>
      </table>
      <p data-testid="audit-status" data-ok={audit ? String(audit.ok) : ''}>
        Audit chain: {auditLine(audit)}{' '}
        <button type="button" onClick={verify} disabled={checking}>
          {checking ? 'Verifying…' : 'Verify now'}
        </button>
      </p>
    </section>
  );
}
