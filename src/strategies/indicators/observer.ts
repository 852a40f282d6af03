/**
 * How `tcs strategy check` sees the indicators a strategy declared, without asking anything of its
 * author: while an observer is installed, every tracker made (trackIndicators) hands it a read-only
 * view of its latest readings per symbol. Nothing is installed in a simulation or a trading process,
 * where a tracker costs one global lookup when it is made and nothing per update.
 *
 * The observer lives under a global symbol, not in this module: a strategy outside the package
 * imports its own copy of the tracker (dist/src/…, through the package `exports`) while the check
 * runs in the CLI's bundle, and the two copies share only the global object.
 */
import type { IndicatorReadings, IndicatorSpecs } from './tracker.js';

const KEY = Symbol.for('trading-control-service.indicator-trackers');

/** What an observer is told of one tracker: its indicators' labels by name, and its readings. */
export interface TrackerView {
  /** Declared name → label (`{ slow: 'ema(50)' }`). */
  readonly labels: Readonly<Record<string, string>>;
  /** The readings after the last bar fed for `symbol`, or null (never fed, or still warming up). */
  readings(symbol: string): IndicatorReadings<IndicatorSpecs> | null;
}

type Observer = (view: TrackerView) => void;

/**
 * Called by every new tracker: tells the installed observer, if any. The slot is on the global
 * object, where any module can write: whatever is there never stops a tracker from being made
 * (another agent's strategy could otherwise break this one's start).
 */
export function announceTracker(view: TrackerView): void {
  const observer = (globalThis as Record<symbol, unknown>)[KEY];
  if (typeof observer !== 'function') return;
  try {
    (observer as Observer)(view);
  } catch {
    // Not the check's observer (it does not throw): a foreign one is ignored.
  }
}

/** Installs `observer` for the trackers made from now on; the function returned restores what was there. */
export function observeTrackers(observer: Observer): () => void {
  const global = globalThis as Record<symbol, unknown>;
  const before = global[KEY];
  global[KEY] = observer;
  return () => {
    global[KEY] = before;
  };
}
