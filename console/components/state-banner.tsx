/**
 * The always-visible state banner: running / paused / killed with epoch, reason and time, the last
 * cycle and the stream's connection. `data-state` and `data-epoch` are kept current for tests and
 * the latency benchmark, which watch them.
 */
import { utc } from '../lib/format.js';
import type { StreamStatus } from '../lib/stream.js';
import type { ControlStatus, Heartbeat } from '../lib/types.js';

const STREAM_TEXT: Record<StreamStatus, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  refused: 'key refused',
  closed: 'closed',
};

interface Props {
  status: ControlStatus | null;
  heartbeat: Heartbeat | null;
  stream: StreamStatus;
}

export function StateBanner({ status, heartbeat, stream }: Props) {
  const state = status?.state ?? 'unknown';
  return (
    <section
      class={`banner state-${state}`}
      data-testid="state"
      data-state={state}
      data-epoch={status ? String(status.epoch) : ''}
      aria-label="System state"
    >
      {/* Only the state change is announced to screen readers, not every cycle's tick. */}
      <span class="state-change" aria-live="polite">
        <span class="state-word">{state.toUpperCase()}</span>
        <span>
          epoch <strong data-testid="epoch">{status?.epoch ?? '—'}</strong>
        </span>
        <span>
          since <time dateTime={status?.changed_at}>{utc(status?.changed_at)}</time>
        </span>
        <span class="reason">reason: {status?.reason ?? '—'}</span>
      </span>
      <span>
        cycle <strong data-testid="cycle">{heartbeat?.cycle ?? '—'}</strong>
      </span>
      {heartbeat?.halt ? <span class="halt">halted: {heartbeat.halt}</span> : null}
      <span class={`stream stream-${stream}`}>stream {STREAM_TEXT[stream]}</span>
    </section>
  );
}
