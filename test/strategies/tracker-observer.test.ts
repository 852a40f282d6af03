/**
 * The indicator trackers' observer slot (src/strategies/indicators/observer.ts) is on the global
 * object, where any strategy module can write: something thrown from there must not stop another
 * agent's tracker from being made (its strategy would fail to start), and an observer installed by
 * the check still sees every tracker made.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { observeTrackers } from '../../src/strategies/indicators/observer.js';
import { ta } from '../../src/strategies/indicators/ta.js';
import { trackIndicators } from '../../src/strategies/indicators/tracker.js';

describe('tracker observer slot', () => {
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());

  it('a throwing observer does not stop a tracker from being made', () => {
    restore = observeTrackers(() => {
      throw new Error('planted by another module');
    });
    expect(() => trackIndicators({ fast: ta.ema(10) })).not.toThrow();
  });

  it('an installed observer is told of each tracker made, with its labels', () => {
    const seen: string[][] = [];
    restore = observeTrackers((view) => seen.push(Object.keys(view.labels)));
    trackIndicators({ fast: ta.ema(10), slow: ta.ema(30) });
    expect(seen).toEqual([['fast', 'slow']]);
  });
});
