/**
 * Verifying the audit chain against its head, shared by every event store adapter so they name the
 * same first bad entry for the same damage. Links alone prove that no entry was changed or removed
 * between two others; only the head, stored atomically with each entry, can tell that entries were
 * cut from the end, that the last one was rewritten with a fresh hash, or that one was slipped in
 * after it.
 */
import { chainHash, GENESIS_HASH } from './hash-chain.js';
import type { ChainedFields } from './hash-chain.js';

/** Where the chain ends, as recorded with the last append: seq 0, GENESIS_HASH, null at when empty. */
export interface ChainHead {
  seq: number;
  hash: string;
  at: string | null;
}

export interface ChainEntry extends ChainedFields {
  prev_hash: string;
  hash: string;
}

export interface ChainProblem {
  seq: number;
  reason: string;
}

import type { ChainFloor } from './chain-floor.js';
export type { ChainFloor } from './chain-floor.js';

export const NO_FLOOR: ChainFloor = { seq: 0, hash: GENESIS_HASH };

/** Bad input is refused before anything is touched. */
export function checkFloor(through: ChainFloor): void {
  if (!Number.isSafeInteger(through.seq) || through.seq < 0)
    throw new RangeError(`audit trim: seq must be a whole number >= 0, got ${through.seq}`);
  if (!/^[0-9a-f]{64}$/.test(through.hash)) throw new RangeError('audit trim: hash must be 64 hex digits');
}

/** Feed it the entries present in seq order, then call `end()`; the first problem found is final. */
export class ChainWalk {
  private prev: string;
  private expected: number;

  /** `floor`: walk from the entry after it (a hot window whose older entries were archived and trimmed). */
  constructor(
    private readonly head: ChainHead,
    floor: ChainFloor = NO_FLOOR,
  ) {
    this.prev = floor.hash;
    this.expected = floor.seq + 1;
  }

  /** Checks the next entry present; a problem names the first seq that is wrong. */
  next(entry: ChainEntry): ChainProblem | null {
    const { head } = this;
    const gap = this.gapBefore(entry.seq);
    if (gap) return gap;
    if (entry.seq !== this.expected)
      return { seq: this.expected, reason: `expected seq ${this.expected}, found ${entry.seq}` };
    if (entry.seq > head.seq) return beyondHead(entry.seq, head.seq);
    if (entry.prev_hash !== this.prev)
      return { seq: entry.seq, reason: 'prev_hash does not match the previous entry hash' };
    if (chainHash(this.prev, entry) !== entry.hash)
      return { seq: entry.seq, reason: 'hash does not match the entry contents' };
    if (entry.seq === head.seq && (entry.hash !== head.hash || (head.at !== null && entry.at !== head.at)))
      return { seq: entry.seq, reason: 'the chain head does not match this entry (rewritten, or the head was edited)' };
    this.prev = entry.hash;
    this.expected += 1;
    return null;
  }

  /**
   * Entries the head accounts for that are absent before `seq`. Adapters ask it before reporting
   * something wrong with the entry at `seq` itself (unreadable), so the first bad seq comes first.
   */
  gapBefore(seq: number): ChainProblem | null {
    if (seq > this.expected && this.expected <= this.head.seq)
      return missing(this.expected, Math.min(seq - 1, this.head.seq), this.head.seq);
    return null;
  }

  /** After the last entry present: entries the head accounts for but that are gone. */
  end(): ChainProblem | null {
    if (this.expected <= this.head.seq) return missing(this.expected, this.head.seq, this.head.seq);
    return null;
  }
}

/** An entry found at `seq` although the head says the chain ends at `headSeq`. */
export function beyondHead(seq: number, headSeq: number): ChainProblem {
  return { seq, reason: `entry lies beyond the chain head (seq ${headSeq}): written without moving it` };
}

function missing(from: number, to: number, headSeq: number): ChainProblem {
  const which = from === to ? `entry ${from} is missing` : `entries ${from}–${to} are missing`;
  return { seq: from, reason: `${which} (the chain head says the trail ends at ${headSeq})` };
}
