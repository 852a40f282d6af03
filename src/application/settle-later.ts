/**
 * Outcomes the store refused to record, kept in memory until it takes them. A receiver that accepted
 * a delivery while the store refuses writes (Redis out of memory, a read-only file) would otherwise
 * see it again every round: the outbox still says pending. Here the outcome waits in memory, the
 * delivery is not handed out again by `due`, and every `due` first tries to record what waits. Lost
 * with the process: a notifier killed meanwhile posts it once more, under the same delivery id.
 */
import type { NotifyOutbox } from '../ports/notify-outbox.js';

type Outcome = Parameters<NotifyOutbox['settle']>[1];

export function settleLater(outbox: NotifyOutbox): NotifyOutbox & { waiting(): number } {
  const waiting = new Map<string, Outcome>();
  const flush = async () => {
    for (const [id, outcome] of [...waiting]) {
      await outbox.settle(id, outcome);
      waiting.delete(id);
    }
  };
  return {
    ...outbox,
    async due(nowMs, limit, target) {
      await flush();
      return outbox.due(nowMs, limit, target);
    },
    async settle(id, outcome) {
      try {
        await outbox.settle(id, outcome);
      } catch (err) {
        // A later outcome of the same delivery replaces an earlier one (a failure, then a success).
        waiting.set(id, outcome);
        throw err;
      }
    },
    waiting: () => waiting.size,
  };
}
