/** Cancel-all: every whitelisted symbol or one, queued for the trading process. */
import { useState } from 'preact/hooks';
import type { ConsoleState } from '../use-console.js';
import { Dialog } from './dialog.js';

export function CancelAllDialog({ c, open, onClose }: { c: ConsoleState; open: boolean; onClose(): void }) {
  const [symbol, setSymbol] = useState('');
  const [busy, setBusy] = useState(false);
  const symbols = c.account?.symbols ?? [];
  const resting = (c.account?.open_orders ?? []).filter((o) => !symbol || o.symbol === symbol).length;
  const confirm = async () => {
    setBusy(true);
    try {
      const result = await c.api.post<{ command_id: string }>('/control/cancel-all', {
        symbols: symbol ? [symbol] : null,
      });
      c.say('info', `cancel-all queued for ${symbol || 'all symbols'} (${result.command_id})`);
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
      title="Cancel resting orders"
      confirm="Cancel orders"
      busy={busy}
      onConfirm={confirm}
      onClose={onClose}
      testId="cancel-dialog"
    >
      <label for="cancel-symbol">Symbols</label>
      <select id="cancel-symbol" value={symbol} onChange={(e) => setSymbol(e.currentTarget.value)}>
        <option value="">All symbols</option>
        {symbols.map((s) => (
          <option key={s.symbol} value={s.symbol}>
            {s.symbol}
          </option>
        ))}
      </select>
      <p>
        {resting} resting order{resting === 1 ? '' : 's'} in the last published portfolio. Positions stay; the trading
        process keeps running.
      </p>
    </Dialog>
  );
}
