// The bounded replay ledger: first use accepted, replays refused, least recently seen forgotten.
import { describe, expect, it } from 'vitest';
import { UsedTokenLedger } from '../../src/domain/used-token-ledger.js';

describe('UsedTokenLedger', () => {
  it('accepts an id once and refuses replays', () => {
    const ledger = new UsedTokenLedger(3);
    expect(ledger.use('a')).toBe(true);
    expect(ledger.use('a')).toBe(false);
    expect(ledger.has('a')).toBe(true);
    expect(ledger.size).toBe(1);
  });

  it('forgets the least recently seen id beyond its capacity', () => {
    const ledger = new UsedTokenLedger(2);
    ledger.use('a');
    ledger.use('b');
    ledger.use('c');
    expect(ledger.has('a')).toBe(false);
    expect(ledger.has('b')).toBe(true);
    expect(ledger.size).toBe(2);
  });

  it('a replay refreshes the id so it is not the one forgotten', () => {
    const ledger = new UsedTokenLedger(2);
    ledger.use('a');
    ledger.use('b');
    expect(ledger.use('a')).toBe(false);
    ledger.use('c');
    expect(ledger.has('a')).toBe(true);
    expect(ledger.has('b')).toBe(false);
  });

  it('never grows past its capacity', () => {
    const ledger = new UsedTokenLedger(100);
    for (let i = 0; i < 1_000; i++) ledger.use(`id-${i}`);
    expect(ledger.size).toBe(100);
    expect(ledger.has('id-999')).toBe(true);
    expect(ledger.has('id-899')).toBe(false);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses capacity %s', (capacity) => {
    expect(() => new UsedTokenLedger(capacity)).toThrow(RangeError);
  });

  it('defaults to 10 000', () => {
    expect(new UsedTokenLedger().capacity).toBe(10_000);
  });
});
