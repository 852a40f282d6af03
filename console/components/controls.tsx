/**
 * The operator's actions: pause and resume at once (both reversible), and the four that act on the
 * venue behind a confirmation: the kill switch (needs a reason; optionally flattens), cancel-all (all
 * symbols or one), deleverage (previewed first) and flatten (the closes listed first). Each answer is shown in the message area.
 * The drawdown reset (reason required) opens the one dialog the shell keeps, which the banner's
 * reducing notice opens too.
 */
import { useState } from 'preact/hooks';
import type { ConsoleState } from '../use-console.js';
import type { ControlStatus } from '../lib/types.js';
import { CancelAllDialog } from './cancel-all-dialog.js';
import { DeleverageDialog } from './deleverage-dialog.js';
import { FlattenDialog } from './flatten-dialog.js';
import { KillDialog } from './kill-dialog.js';

type Open = 'kill' | 'cancel' | 'deleverage' | 'flatten' | null;

export function Controls({ c, onResetDrawdown }: { c: ConsoleState; onResetDrawdown(): void }) {
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  const [pauseReason, setPauseReason] = useState('');
  const state = c.status?.state;

  const transition = async (verb: 'pause' | 'resume') => {
    setBusy(true);
    // A pause says why when the operator wrote it (the banner shows it); else the API's default.
    const why = verb === 'pause' ? pauseReason.trim() : '';
    try {
      const result = await c.api.post<ControlStatus & { changed: boolean }>(
        `/control/${verb}`,
        why ? { reason: why } : {},
      );
      if (verb === 'pause') setPauseReason('');
      c.setStatus(result);
      c.say('info', result.changed ? `${verb}d: now ${result.state}` : `already ${result.state}`);
    } catch (err) {
      c.fail(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel controls" aria-labelledby="controls-title">
      <h2 id="controls-title">Controls</h2>
      <div class="buttons">
        <label class="inline">
          Pause reason
          <input
            type="text"
            maxLength={500}
            placeholder="optional, e.g. maintenance"
            value={pauseReason}
            onInput={(e) => setPauseReason((e.target as HTMLInputElement).value)}
            disabled={busy || state !== 'running'}
          />
        </label>
        <button type="button" onClick={() => transition('pause')} disabled={busy || state !== 'running'}>
          Pause
        </button>
        <button type="button" onClick={() => transition('resume')} disabled={busy || state !== 'paused'}>
          Resume
        </button>
        <button type="button" onClick={() => setOpen('cancel')}>
          Cancel orders…
        </button>
        <button type="button" onClick={() => setOpen('deleverage')}>
          Deleverage…
        </button>
        <button type="button" onClick={onResetDrawdown}>
          Reset drawdown…
        </button>
        <button type="button" class="danger" onClick={() => setOpen('flatten')}>
          Flatten…
        </button>
        <button type="button" class="danger" onClick={() => setOpen('kill')}>
          Kill switch…
        </button>
      </div>
      <KillDialog c={c} open={open === 'kill'} onClose={() => setOpen(null)} />
      <CancelAllDialog c={c} open={open === 'cancel'} onClose={() => setOpen(null)} />
      <DeleverageDialog c={c} open={open === 'deleverage'} onClose={() => setOpen(null)} />
      <FlattenDialog c={c} open={open === 'flatten'} onClose={() => setOpen(null)} />
    </section>
  );
}
