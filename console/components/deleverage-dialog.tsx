/**
 * Deleverage in two steps: preview the reduce-only order the API would prepare now (same rule and
 * portfolio as the real call, nothing queued), then send it. The share is asked as the API takes it
 * (`reduce_pct`, a fraction of the position), so console and API speak one unit. Changing the symbol
 * or the share discards the preview. The API plans the order again when the send arrives; when a fill in between
 * made it differ from the preview, the console says so plainly and the message stays.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ConsoleState } from '../use-console.js';
import { qty } from '../lib/format.js';
import type { DeleverageOrder, DeleveragePreview } from '../lib/types.js';
import { Dialog } from './dialog.js';

export function DeleverageDialog({ c, open, onClose }: { c: ConsoleState; open: boolean; onClose(): void }) {
  const symbols = c.account?.symbols ?? [];
  const withPosition = c.account?.positions.find((p) => p.qty !== 0)?.symbol;
  const [symbol, setSymbol] = useState('');
  // The API's unit, the spec's: reduce_pct is a fraction of the position (0.5 = half), never a percentage.
  const [fraction, setFraction] = useState('0.5');
  const [preview, setPreview] = useState<DeleveragePreview | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = symbol || withPosition || symbols[0]?.symbol || '';
  const share = Number(fraction);
  const valid = chosen !== '' && share > 0 && share <= 1;

  useEffect(() => setPreview(null), [chosen, fraction, open]);

  const loadPreview = async () => {
    if (!valid) return;
    try {
      setPreview(
        await c.api.get<DeleveragePreview>('/control/deleverage/preview', { symbol: chosen, reduce_pct: share }),
      );
    } catch (err) {
      c.fail(err);
    }
  };
  const confirm = async () => {
    if (!preview?.order) return;
    setBusy(true);
    try {
      const result = await c.api.post<{ message: string; order: DeleverageOrder | null }>('/control/deleverage', {
        symbol: preview.symbol,
        reduce_pct: preview.reduce_pct,
      });
      // The API plans again from the portfolio as it is when the call arrives: a fill in between
      // changes the order. It is still reduce-only, but the operator confirmed another one: say so, and
      // keep saying it (an error stays until dismissed).
      const sent = result.order;
      if (sent === null || sent.side !== preview.order.side || sent.qty !== preview.order.qty) {
        c.say(
          'error',
          `The position changed between the preview and the send: the order prepared is ${describe(sent)}, ` +
            `not the ${describe(preview.order)} shown. ${result.message}`,
        );
      } else c.say('info', result.message);
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
      title="Deleverage a position"
      confirm="Send deleverage"
      busy={busy}
      canConfirm={preview?.order != null}
      onConfirm={confirm}
      onClose={onClose}
      testId="deleverage-dialog"
    >
      <label for="deleverage-symbol">Symbol</label>
      <select id="deleverage-symbol" value={chosen} onChange={(e) => setSymbol(e.currentTarget.value)}>
        {symbols.map((s) => (
          <option key={s.symbol} value={s.symbol}>
            {s.symbol}
          </option>
        ))}
      </select>
      <label for="deleverage-pct">Reduce by (reduce_pct: a fraction of the position, 0.5 = half, up to 1)</label>
      <input
        id="deleverage-pct"
        type="number"
        min={0}
        max={1}
        step="any"
        value={fraction}
        onInput={(e) => setFraction(e.currentTarget.value)}
      />
      {valid ? (
        <span class="hint">{`= ${(share * 100).toFixed(share * 100 >= 10 ? 0 : 1)} % of the position`}</span>
      ) : null}
      <button type="button" onClick={loadPreview} disabled={!valid}>
        Preview order
      </button>
      {preview ? (
        <div class="preview" data-testid="deleverage-preview" aria-live="polite">
          <p>
            Position {qty(preview.position_qty)} {preview.symbol}: {preview.message}
          </p>
          {preview.order ? (
            <table>
              <caption>Prepared reduce-only order</caption>
              <thead>
                <tr>
                  <th scope="col">Symbol</th>
                  <th scope="col">Side</th>
                  <th scope="col">Qty</th>
                  <th scope="col">Type</th>
                  <th scope="col">Reduce-only</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td>{preview.order.symbol}</td>
                  <td>{preview.order.side}</td>
                  <td>{qty(preview.order.qty)}</td>
                  <td>{preview.order.type}</td>
                  <td>yes</td>
                </tr>
              </tbody>
            </table>
          ) : null}
        </div>
      ) : (
        <p>Preview the order before sending it.</p>
      )}
    </Dialog>
  );
}

function describe(order: DeleverageOrder | null): string {
  return order === null ? 'nothing (no position left to reduce)' : `${order.side} ${qty(order.qty)} ${order.symbol}`;
}
