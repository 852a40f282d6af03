/**
 * One decision: every signal with its weight, score and whether it was selected (and why), then each
 * proposed order's risk verdict with every guard's value, limit (in the guard's unit: percentages,
 * ×), how much of the limit is used and the verdict; before them, what
 * strategies threw in that cycle, if anything.
 */
import { agentErrorsOf } from '../lib/agent-errors.js';
import { num, utc } from '../lib/format.js';
import { guardFigures } from '../lib/guards.js';
import type { DecisionEntry } from '../lib/types.js';

/** What strategies threw in this cycle (each cost that symbol's signal); nothing when none did. */
function AgentErrors({ entry }: { entry: DecisionEntry }) {
  const errors = agentErrorsOf(entry.decision);
  if (errors.length === 0) return null;
  return (
    <table data-testid="agent-errors" class="agent-errors-table">
      <caption>Agent errors ({errors.length}): these symbols had no signal from that agent</caption>
      <thead>
        <tr>
          <th scope="col">Agent</th>
          <th scope="col">Symbol</th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        {errors.map((e, i) => (
          <tr key={i} class="fail">
            <td>{e.agent}</td>
            <td>{e.symbol}</td>
            <td>{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const direction = (d: number) => (d > 0 ? 'long' : d < 0 ? 'short' : 'flat');

export function DecisionDetail({ entry }: { entry: DecisionEntry }) {
  const d = entry.decision;
  const signals = d.signals ?? [];
  return (
    <article class="detail" data-testid="decision-detail" aria-label={`Decision of cycle ${d.cycle ?? entry.seq}`}>
      <h3>
        Cycle {d.cycle ?? '—'} · {utc(entry.at)} · epoch {d.epoch ?? '—'} · {d.outcome ?? '—'}
        {d.error ? ` · ${d.error}` : ''}
      </h3>
      <table>
        <caption>Signals ({signals.length})</caption>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Symbol</th>
            <th scope="col">Direction</th>
            <th scope="col">Confidence</th>
            <th scope="col">Weight</th>
            <th scope="col">Score</th>
            <th scope="col">Selected</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {signals.map((s, i) => (
            <tr key={i} class={s.selected ? 'selected' : ''}>
              <td>{s.agent}</td>
              <td>{s.symbol}</td>
              <td>{direction(s.direction)}</td>
              <td>{num(s.confidence, 3)}</td>
              <td>{num(s.weight, 3)}</td>
              <td>{num(s.score, 3)}</td>
              <td>{s.selected ? 'selected' : 'no'}</td>
              <td>{s.reason ?? s.rationale ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <AgentErrors entry={entry} />
      {(d.risk ?? []).map((r) => (
        <table key={r.client_order_id} data-testid="guards">
          <caption>
            Risk for {r.symbol} order {r.client_order_id}: {r.approved ? 'approved' : 'rejected'}
            {r.reduce_only ? ' (reduce-only)' : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Guard</th>
              <th scope="col">Value</th>
              <th scope="col">Limit</th>
              <th scope="col">Used of limit</th>
              <th scope="col">Verdict</th>
            </tr>
          </thead>
          <tbody>
            {r.guards.map((g) => {
              const f = guardFigures(g);
              return (
                <tr key={g.guard} class={g.passed ? 'pass' : 'fail'}>
                  <th scope="row">{g.guard}</th>
                  <td>{f.value}</td>
                  <td>{f.limit}</td>
                  <td>{f.used}</td>
                  <td>{g.passed ? 'pass' : `fail${g.code ? ` (${g.code})` : ''}`}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ))}
      {(d.risk ?? []).length === 0 ? <p class="note">No order was proposed in this cycle.</p> : null}
    </article>
  );
}
