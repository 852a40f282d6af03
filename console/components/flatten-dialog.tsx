/**
 * Flatten: close every position, or one symbol's, with reduce-only market orders, in any state. The
 * confirmation lists the closes the last published portfolio implies; the trading process closes
 * what the live account holds, so a position already flat simply completes with nothing to do.
 */
import { useState } from 'preact/hooks';
import type { ConsoleState } from '../use-console.js';
import { flattenBody, plannedCloses } from '../lib/flatten.js';
import { qty } from '../lib/format.js';
import { Dialog } from './dialog.js';

export function FlattenDialog({ c, open, onClose }: { c: ConsoleState; open: boolean; onClose(): void }) {
  const [symbol, setSymbol] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const symbols = c.account?.symbols ?? [];
  const closes = plannedCloses(c.account?.positions ?? [], symbol);
  const confirm = async () => {
    setBusy(true);
    try {
      const result = await c.api.post<{ message: string; command_id: string }>(
        '/control/flatten',
        flattenBody(symbol, reason),
      );
      c.say('info', `${result.message} (${result.command_id})`);
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
      title="Flatten positions"
      confirm="Flatten"
      danger
      busy={busy}
      onConfirm={confirm}
      onClose={onClose}
      testId="flatten-dialog"
    >
      <label for="flatten-symbol">Positions</label>
      <select id="flatten-symbol" value={symbol} onChange={(e) => setSymbol(e.currentTarget.value)}>
        <option value="">Every position</option>
        {symbols.map((s) => (
          <option key={s.symbol} value={s.symbol}>
            {s.symbol}
          </option>
        ))}
      </select>
      {closes.length === 0 ? (
        <p data-testid="flatten-plan">The last published portfolio shows nothing open there: nothing to close.</p>
      ) : (
        <ul data-testid="flatten-plan">
          {closes.map((o) => (
            <li key={o.symbol}>
              reduce-only market {o.side} {qty(o.qty)} {o.symbol}
            </li>
          ))}
        </ul>
      )}
      <p>
        Allowed running, paused or killed; risk limits never block a close. The state does not change: a running
        strategy may open again (pause first, or use the kill switch with flatten).
      </p>
      <label for="flatten-reason">Reason (optional, recorded in the audit trail)</label>
      <input
        id="flatten-reason"
        maxLength={500}
        value={reason}
        onInput={(e) => setReason(e.currentTarget.value)}
        autoComplete="off"
      />
    </Dialog>
  );
}
