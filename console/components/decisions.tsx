/**
 * The decision log from /reports/decisions: one row per cycle, newest first, filtered by symbol and
 * time (UTC), paged with `before`. The first page follows new decisions as they are recorded;
 * older pages stay put while the operator reads them. Pages run on into the audit archive below the
 * store's window (the API does it); when the archive cannot be read, a note says why a page stops short.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ConsoleState } from '../use-console.js';
import { agentErrorMark } from '../lib/agent-errors.js';
import { archiveNote } from '../lib/archive-note.js';
import { utc, utcInputToIso } from '../lib/format.js';
import type { DecisionEntry } from '../lib/types.js';
import { DecisionDetail } from './decision-detail.js';

const PAGE = 20;

/** A cycle in which a strategy threw: a count beside its signals, the agents in the tooltip. */
function AgentErrorMark({ entry }: { entry: DecisionEntry }) {
  const mark = agentErrorMark(entry.decision);
  if (mark === null) return null;
  return (
    <span class="agent-errors" data-testid="agent-error-mark" title={mark.title} aria-label={mark.title}>
      {mark.text}
    </span>
  );
}

interface Filters {
  symbol: string;
  since: string;
  until: string;
}

export function Decisions({ c }: { c: ConsoleState }) {
  const [filters, setFilters] = useState<Filters>({ symbol: '', since: '', until: '' });
  /** `before` cursors of the pages above the current one; empty on the first page. */
  const [cursors, setCursors] = useState<(number | undefined)[]>([]);
  const [before, setBefore] = useState<number | undefined>(undefined);
  const [entries, setEntries] = useState<DecisionEntry[]>([]);
  const [archive, setArchive] = useState<string | null>(null);
  // The entry itself, not only its seq: the first page reloads on every recorded decision, and an
  // entry opened for reading must not vanish when newer ones push it off the page.
  const [picked, setPicked] = useState<DecisionEntry | null>(null);
  const selected = picked?.seq ?? null;
  const firstPage = before === undefined;
  const tick = firstPage ? c.decisionsTick : 0;

  useEffect(() => {
    let live = true;
    c.api
      .getPage<DecisionEntry[]>('/reports/decisions', {
        limit: PAGE,
        before,
        symbol: filters.symbol || undefined,
        since: utcInputToIso(filters.since),
        until: utcInputToIso(filters.until),
      })
      .then((page) => {
        if (!live) return;
        setEntries(page.body);
        setArchive(page.archive);
      })
      .catch((err: unknown) => live && c.fail(err));
    return () => {
      live = false;
    };
    // `tick` reloads the first page when a decision is recorded.
  }, [c.api, before, filters, tick]);

  const change = (patch: Partial<Filters>) => {
    setFilters({ ...filters, ...patch });
    setBefore(undefined);
    setCursors([]);
  };
  const older = () => {
    const last = entries.at(-1);
    if (!last) return;
    setCursors([...cursors, before]);
    setBefore(last.seq);
  };
  const newer = () => {
    setBefore(cursors.at(-1));
    setCursors(cursors.slice(0, -1));
  };
  const shown = entries.find((e) => e.seq === selected) ?? picked;

  return (
    <section class="panel decisions" aria-labelledby="decisions-title">
      <h2 id="decisions-title">Decisions</h2>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Decision filters">
        <label>
          Symbol
          <select value={filters.symbol} onChange={(e) => change({ symbol: e.currentTarget.value })}>
            <option value="">All</option>
            {(c.account?.symbols ?? []).map((s) => (
              <option key={s.symbol} value={s.symbol}>
                {s.symbol}
              </option>
            ))}
          </select>
        </label>
        <label>
          From (UTC)
          <input
            type="datetime-local"
            step={1}
            value={filters.since}
            onChange={(e) => change({ since: e.currentTarget.value })}
          />
        </label>
        <label>
          Until (UTC)
          <input
            type="datetime-local"
            step={1}
            value={filters.until}
            onChange={(e) => change({ until: e.currentTarget.value })}
          />
        </label>
      </form>
      <table data-testid="decisions">
        <caption>{firstPage ? 'Newest decisions (live)' : 'Older decisions'}</caption>
        <thead>
          <tr>
            <th scope="col">Cycle</th>
            <th scope="col">Time</th>
            <th scope="col">Symbol</th>
            <th scope="col">Outcome</th>
            <th scope="col">Signals</th>
            <th scope="col">Orders</th>
          </tr>
        </thead>
        <tbody>
          {entries.length === 0 ? (
            <tr>
              <td colSpan={6}>No decision matches.</td>
            </tr>
          ) : (
            entries.map((e) => (
              <tr key={e.seq} class={e.seq === selected ? 'selected' : ''}>
                <td>
                  <button
                    type="button"
                    class="link"
                    aria-pressed={e.seq === selected}
                    onClick={() => setPicked(e.seq === selected ? null : e)}
                  >
                    {e.decision.cycle ?? `#${e.seq}`}
                  </button>
                </td>
                <td>{utc(e.at)}</td>
                <td>{e.symbol ?? '—'}</td>
                <td>{e.decision.outcome ?? '—'}</td>
                <td>
                  {e.decision.signals?.length ?? 0} <AgentErrorMark entry={e} />
                </td>
                <td>{e.decision.risk?.length ?? 0}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      {archiveNote(archive) === null ? null : (
        <p class="note" role="status" data-testid="archive-note">
          {archiveNote(archive)}
        </p>
      )}
      <div class="pager">
        <button type="button" onClick={newer} disabled={firstPage}>
          Newer
        </button>
        <button type="button" onClick={older} disabled={entries.length < PAGE}>
          Older
        </button>
      </div>
      {shown ? <DecisionDetail entry={shown} /> : <p class="note">Choose a cycle to see its signals and guards.</p>}
    </section>
  );
}
