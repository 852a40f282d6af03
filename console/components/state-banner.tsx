/**
 * The always-visible state banner: running / paused / killed with epoch, reason and time, the last
 * cycle and the stream's connection. Paused and killed say why right beside the state word (that is
 * what an operator arriving at a stopped system asks first), and killed says how it ends: the API
 * cannot end a kill, only a restart with the audited reset can. While the risk engine is `reducing`
 * (a drawdown breach: only closes pass, whatever the control state) a notice says so, since when, why
 * and how it ends, with the drawdown reset one click away. `data-state` and `data-epoch` are
 * kept current for tests and the latency benchmark, which watch them.
 */
import { utc } from '../lib/format.js';
import { KILL_RECOVERY_TEXT, KILL_RESET_COMMAND, KILL_RESET_TRADE_COMMAND } from '../lib/kill-recovery.js';
import { reducingNotice } from '../lib/risk-state.js';
import type { RiskHealth } from '../lib/risk-state.js';
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
  /** /health's risk component; undefined before the first health answer. */
  risk: RiskHealth | undefined;
  onResetDrawdown(): void;
}

export function StateBanner({ status, heartbeat, stream, risk, onResetDrawdown }: Props) {
  const state = status?.state ?? 'unknown';
  const reducing = reducingNotice(risk);
  const stopped = state === 'paused' || state === 'killed';
  const reason = status?.reason ?? '—';
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
        {stopped ? (
          <span class="state-reason" data-testid="state-reason">
            “{reason}”
          </span>
        ) : null}
        <span>
          epoch <strong data-testid="epoch">{status?.epoch ?? '—'}</strong>
        </span>
        <span>
          since <time dateTime={status?.changed_at}>{utc(status?.changed_at)}</time>
        </span>
        {stopped ? null : <span class="reason">reason: {reason}</span>}
      </span>
      <span>
        cycle <strong data-testid="cycle">{heartbeat?.cycle ?? '—'}</strong>
      </span>
      {heartbeat?.halt ? <span class="halt">halted: {heartbeat.halt}</span> : null}
      <span class={`stream stream-${stream}`}>stream {STREAM_TEXT[stream]}</span>
      {reducing ? (
        <p class="risk-reducing" data-testid="risk-reducing" role="status">
          <strong>{reducing}</strong>{' '}
          <button type="button" onClick={onResetDrawdown}>
            Reset drawdown…
          </button>
        </p>
      ) : null}
      {state === 'killed' ? (
        <p class="kill-recovery" data-testid="kill-recovery">
          {KILL_RECOVERY_TEXT} <code>{KILL_RESET_COMMAND}</code> (or, the trading process alone,{' '}
          <code>{KILL_RESET_TRADE_COMMAND}</code>). See docs/operate/incidents.md, “Ending a kill”.
        </p>
      ) : null}
    </section>
  );
}
