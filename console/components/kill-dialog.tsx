/**
 * The kill switch's confirmation: it asks for a reason (recorded in the audit trail), offers to
 * flatten every position too (off by default; the kill is recorded first either way), and says what
 * the switch does and that only a manual restart undoes it.
 */
import { useState } from 'preact/hooks';
import type { ConsoleState } from '../use-console.js';
import type { ControlStatus } from '../lib/types.js';
import { killBody } from '../lib/flatten.js';
import { Dialog } from './dialog.js';

interface KillResult {
  action: 'killed';
  reason: string;
  cancel_instructions: { tool: string; symbol: string }[];
}

export function KillDialog({ c, open, onClose }: { c: ConsoleState; open: boolean; onClose(): void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [flatten, setFlatten] = useState(false);
  const confirm = async () => {
    if (!reason.trim()) return;
    setBusy(true);
    let result: KillResult;
    try {
      result = await c.api.post<KillResult>('/control/kill-switch', killBody(reason, flatten));
    } catch (err) {
      c.fail(err);
      setBusy(false);
      return;
    }
    // The kill is recorded: the dialog closes whatever happens next (the stream brings the banner
    // too), so a failed follow-up read can never make a kill look as if it had failed.
    const cancels = `cancels queued for ${result.cancel_instructions.map((i) => i.symbol).join(', ')}`;
    c.say('info', `killed: ${cancels}${flatten ? '; every position is being closed reduce-only' : ''}`);
    setReason('');
    setFlatten(false);
    setBusy(false);
    onClose();
    try {
      c.setStatus(await c.api.get<ControlStatus>('/control/status'));
    } catch (err) {
      c.fail(err);
    }
  };
  return (
    <Dialog
      open={open}
      title="Pull the kill switch"
      confirm="Kill trading"
      danger
      busy={busy}
      canConfirm={reason.trim().length > 0}
      onConfirm={confirm}
      onClose={onClose}
      testId="kill-dialog"
    >
      <p>
        Stops trading at once: the cycle in flight is stopped, nothing more is submitted and every resting order is
        cancelled. Only a manual restart (<code>npm start -- --reset-kill --reason …</code>) ends it.
      </p>
      <label for="kill-reason">Reason (required, recorded in the audit trail)</label>
      <input
        id="kill-reason"
        name="reason"
        required
        maxLength={500}
        value={reason}
        onInput={(e) => setReason(e.currentTarget.value)}
        autoComplete="off"
      />
      <label class="inline">
        <input type="checkbox" checked={flatten} onChange={(e) => setFlatten(e.currentTarget.checked)} />
        Also flatten every position (reduce-only market closes, after the kill is recorded)
      </label>
    </Dialog>
  );
}
