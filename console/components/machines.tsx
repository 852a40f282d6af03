/**
 * The actor system made visible: each machine's state tree from its definition, nested, with the
 * active states highlighted from what the trading process last published (GET /control/machines,
 * then SSE `machines` events). Parallel regions are marked, as the order manager has several. When
 * the trading process is stopped or stale the view says so and is dimmed: its last states are not live.
 */
import type { ConsoleState } from '../use-console.js';
import { activeLeaves, shortId, staleMachinesReason } from '../lib/machines.js';
import type { MachineView, StateNode } from '../lib/machines.js';
import { utc } from '../lib/format.js';

function Node({ node, active }: { node: StateNode; active: Set<string> }) {
  const on = active.has(node.id);
  return (
    <li class={`node ${node.type}${on ? ' active' : ''}`} data-state-id={node.id} data-active={on ? 'true' : 'false'}>
      <span class="node-key">
        {node.key}
        {node.type === 'parallel' ? ' ∥' : ''}
        {on ? <span class="visually-hidden"> (active)</span> : null}
      </span>
      {node.children.length ? (
        <ul>
          {node.children.map((child) => (
            <Node key={child.id} node={child} active={active} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function Machine({ m }: { m: MachineView }) {
  const leaves = activeLeaves(m);
  return (
    <figure class="machine" data-testid={`machine-${m.id}`}>
      <figcaption>
        <strong>{m.label}</strong>: {leaves.length ? leaves.map(shortId).join(', ') : 'not running'}
      </figcaption>
      <ul class="tree">
        <Node node={m.root} active={new Set(m.active)} />
      </ul>
    </figure>
  );
}

export function Machines({ c }: { c: ConsoleState }) {
  const doc = c.machines;
  const stale = staleMachinesReason(c.heartbeat, c.health?.components.trading_process);
  return (
    <section class="panel machines" aria-labelledby="machines-title">
      <h2 id="machines-title">Actor system</h2>
      {doc === 'unavailable' ? (
        <p data-testid="machines-unavailable">machine view unavailable (this API does not serve /control/machines)</p>
      ) : doc === null ? (
        <p>Loading…</p>
      ) : (
        <>
          <p class="note">
            {doc.published_at
              ? `Published ${utc(doc.published_at)}, cycle ${doc.cycle ?? '—'}`
              : 'The trading process has not published its machines yet.'}
          </p>
          {stale ? (
            <p class="message warn" role="status" data-testid="machines-stale">
              Not live: {stale}. These are the states it last published.
            </p>
          ) : null}
          <div class={`machine-list${stale ? ' stale' : ''}`}>
            {doc.machines.map((m) => (
              <Machine key={m.id} m={m} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
