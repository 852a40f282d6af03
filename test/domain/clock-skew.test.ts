/**
 * The audit clock's pure rules (issue 30, finding 8): the skew bound and its message, and an entry's
 * `at` no longer following a previous one that a skewed writer stamped far ahead before the check.
 */
import { describe, expect, it } from 'vitest';
import { AUDIT_CLOCK_SKEW_MS, clockSkew } from '../../src/domain/clock-skew.js';
import { chainedAt } from '../../src/domain/hash-chain.js';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('clockSkew', () => {
  it('accepts up to the bound either way and names the direction beyond it', () => {
    expect(clockSkew(NOW + AUDIT_CLOCK_SKEW_MS, NOW, 'Redis TIME')).toBeNull();
    expect(clockSkew(NOW - AUDIT_CLOCK_SKEW_MS, NOW, 'Redis TIME')).toBeNull();
    expect(clockSkew(NOW + 365 * 86_400_000, NOW, 'Redis TIME')).toMatch(
      /^this process's clock is 365d 00:00:00 ahead of the store's clock \(Redis TIME\), more than the 5 s allowed/,
    );
    expect(clockSkew(NOW - 3_600_000, NOW, 'the host')).toMatch(/clock is 01:00:00 behind the store's clock/);
  });
});

describe('chainedAt with the writer clock', () => {
  it('still raises an entry a few ms behind the previous one (two writers racing)', () => {
    expect(chainedAt(iso(NOW - 3), iso(NOW), NOW)).toBe(iso(NOW));
    expect(chainedAt(iso(NOW - 60_000), iso(NOW), NOW)).toBe(iso(NOW)); // an old stamp re-appended
  });

  it('does not follow a previous entry stamped far ahead by a skewed writer before the check', () => {
    const year = 365 * 86_400_000;
    expect(chainedAt(iso(NOW), iso(NOW + year), NOW)).toBe(iso(NOW));
    // Without the writer's clock (a run's private file) the old rule holds.
    expect(chainedAt(iso(NOW), iso(NOW + year))).toBe(iso(NOW + year));
  });
});
