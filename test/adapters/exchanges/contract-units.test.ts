import { describe, expect, it } from 'vitest';
import { contractSizeOf, toBase, toContracts } from '../../../src/adapters/exchanges/contract-units.js';

describe('contract units', () => {
  it('turns base quantities into whole contracts without binary residue', () => {
    // 0.29 / 0.01 is 28.999999999999996 in floating point: truncated to precision, 28 contracts.
    expect(0.29 / 0.01).not.toBe(29);
    expect(toContracts(0.29, 0.01)).toBe(29);
    expect(toContracts(0.3, 0.1)).toBe(3);
    expect(toContracts(0.7, 0.1)).toBe(7);
    expect(toContracts(0.0001, 0.01)).toBe(0.01);
  });

  it('turns contracts back into the base', () => {
    expect(7 * 0.1).not.toBe(0.7);
    expect(toBase(7, 0.1)).toBe(0.7);
    expect(toBase(3, 0.01)).toBe(0.03);
    expect(toBase(-3, 0.01)).toBe(-0.03);
  });

  it('leaves quantities of a market with no contract size as they are', () => {
    expect(contractSizeOf(undefined)).toBe(1);
    expect(contractSizeOf({ contractSize: null })).toBe(1);
    expect(contractSizeOf({ contractSize: 0 })).toBe(1);
    expect(contractSizeOf({ contractSize: 0.01 })).toBe(0.01);
    expect(toContracts(0.123456789, 1)).toBe(0.123456789);
  });
});
