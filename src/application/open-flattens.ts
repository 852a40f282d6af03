/**
 * Coalescing identical flattens (issue 30, finding 5): a flood of `POST /control/flatten` for the same
 * symbols queued one command each (3,000 in the finding), which the trading process then worked
 * through one by one, in the way of everything else. A flatten asked for while one of the same symbols
 * (in any order, or every position) is still open adds nothing: the caller gets the open command's id.
 *
 * Remembered per API process, not in the store: a second API process, or a restart, queues one more
 * flatten, which finds less to do (closes are reduce-only; a repeat is harmless, only wasteful). The
 * store decides what is open: a remembered id whose command is done, gone or not authenticated is
 * forgotten and a new flatten is queued. Bounded, so a key holder asking for endless symbol sets cannot
 * grow it without limit (the oldest is forgotten first: at worst one more flatten is queued).
 */
import { isMalformed } from '../domain/commands.js';
import type { CommandQueue } from '../ports/command-queue.js';

const MAX_REMEMBERED = 256;

/** One key per set of symbols: order and repeats do not matter; null (every position) is its own. */
function keyOf(symbols: readonly string[] | null): string {
  return symbols === null ? '*' : [...new Set(symbols)].sort().join(',');
}

export class OpenFlattens {
  private readonly byKey = new Map<string, string>();

  /** The id of an open flatten of exactly these symbols, or null. */
  async open(commands: Pick<CommandQueue, 'get'>, symbols: readonly string[] | null): Promise<string | null> {
    const key = keyOf(symbols);
    const id = this.byKey.get(key);
    if (id === undefined) return null;
    const record = await commands.get(id);
    if (record !== null && !isMalformed(record) && record.type === 'flatten' && record.status !== 'done') return id;
    this.byKey.delete(key);
    return null;
  }

  remember(symbols: readonly string[] | null, id: string): void {
    const key = keyOf(symbols);
    this.byKey.delete(key);
    this.byKey.set(key, id);
    if (this.byKey.size > MAX_REMEMBERED) this.byKey.delete(this.byKey.keys().next().value!);
  }
}
