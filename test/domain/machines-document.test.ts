/** The API reads the machines document back only when it has the shape the trading process writes. */
import { describe, expect, it } from 'vitest';
import { parseMachinesDocument } from '../../src/domain/machines-document.js';

const good = {
  ts: 1_700_000_000_000,
  cycle: 7,
  active: { trading: ['trading', 'trading.control'], cycle: ['cycle', 'cycle.loading'], 'order-manager': ['oms'] },
};

describe('parseMachinesDocument', () => {
  it('accepts the published shape, and a null cycle with no cycle states', () => {
    expect(parseMachinesDocument(good)).toEqual(good);
    const idle = { ...good, cycle: null, active: { ...good.active, cycle: [] } };
    expect(parseMachinesDocument(idle)).toEqual(idle);
  });

  it.each([
    ['not an object', 'trading.control'],
    ['null', null],
    ['no ts', { ...good, ts: undefined }],
    ['ts as text', { ...good, ts: '2024-01-01' }],
    ['fractional cycle', { ...good, cycle: 1.5 }],
    ['no active', { ...good, active: undefined }],
    ['a machine missing', { ...good, active: { trading: [], cycle: [] } }],
    ['a non-string id', { ...good, active: { ...good.active, trading: ['trading', 3] } }],
    ['a list that is not a list', { ...good, active: { ...good.active, 'order-manager': 'oms' } }],
  ])('refuses %s', (_, value) => {
    expect(parseMachinesDocument(value)).toBeNull();
  });

  it('keeps only the three machines it knows', () => {
    const extra = { ...good, active: { ...good.active, other: ['x'] } };
    expect(Object.keys(parseMachinesDocument(extra)!.active)).toEqual(['trading', 'cycle', 'order-manager']);
  });

  it("with the machines' own ids given, refuses an id they do not have, a repeated one, and a flood", () => {
    // Found in review: 200,000 ids were accepted; the snapshot then outgrew every stream client's
    // buffer and each console was dropped on connect, again and again.
    const known = {
      trading: new Set(['trading', 'trading.control']),
      cycle: new Set(['cycle', 'cycle.loading']),
      'order-manager': new Set(['oms']),
    };
    expect(parseMachinesDocument(good, known)).toEqual(good);
    const foreign = { ...good, active: { ...good.active, trading: ['trading', 'trading.elsewhere'] } };
    expect(parseMachinesDocument(foreign, known)).toBeNull();
    const repeated = { ...good, active: { ...good.active, trading: ['trading', 'trading'] } };
    expect(parseMachinesDocument(repeated, known)).toBeNull();
    const flood = { ...good, active: { ...good.active, cycle: Array.from({ length: 200_000 }, (_, i) => `s${i}`) } };
    expect(parseMachinesDocument(flood, known)).toBeNull();
    expect(parseMachinesDocument(flood)).toBeNull(); // bounded even without the ids
  });
});
