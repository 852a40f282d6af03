/**
 * The drawdown reset's confirmation (POST /control/risk/reset, as `tcs risk reset`): after a breach
 * the risk engine is `reducing` until the drawdown reference changes, and an operator who has
 * reviewed the loss may make the peak NAV the current NAV instead of waiting for the window. It asks
 * for a reason (required: the reset is audited and "why" is the point of the entry) and shows the
 * drawdown the last published account had, so the operator sees what is being forgiven.
 */
import { useState } from 'preact/hooks';
import type { ConsoleState } from '../use-console.js';
import { money, pct } from '../lib/format.js';
import { RISK_RESET_COMMAND, riskResetBody } from '../lib/risk-state.js';
import { Dialog } from './dialog.js';

export function RiskResetDialog({ c, open, onClose }: { c: ConsoleState; open: boolean; onClose(): void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const account = c.account;
  const confirm = async () => {
    if (!reason.trim()) return;
    setBusy(true);
    try {
      const result = await c.api.post<{ message: string; command_id: string }>(
        '/control/risk/reset',
        riskResetBody(reason),
      );
      c.say('info', `drawdown reset ${result.message} (${result.command_id})`);
      setReason('');
      onClose();
    } catch (err) {
      c.fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      title="Reset the drawdown reference"
      confirm="Reset drawdown"
      danger
      busy={busy}
      canConfirm={reason.trim().length > 0}
      onConfirm={confirm}
      onClose={onClose}
      testId="risk-reset-dialog"
    >
      <p>
        The peak NAV the drawdown is measured from becomes the current NAV. That ends the risk engine’s{' '}
        <strong>reducing</strong> state; a further fall beyond RISK_MAX_DRAWDOWN from there is a new breach. The trading
        process carries it out (now while trading, or when it next starts). The same as{' '}
        <code>{RISK_RESET_COMMAND}</code>.
      </p>
      <p data-testid="risk-reset-before">
        Last published: NAV {money(account?.nav)}, peak {money(account?.peak_nav)}, drawdown {pct(account?.drawdown, 2)}
        .
      </p>
      <label for="risk-reset-reason">Reason for the reset (required, recorded in the audit trail)</label>
      <input
        id="risk-reset-reason"
        name="reason"
        required
        maxLength={500}
        value={reason}
        onInput={(e) => setReason(e.currentTarget.value)}
        autoComplete="off"
      />
    </Dialog>
  );
}
