/**
 * Which browser notifications the console raises (console/lib/browser-alerts.ts), without a browser:
 * one per change into killed or halted, none on the first reading, none for what stays as it was.
 */
import { describe, expect, it } from 'vitest';
import { browserAlerts } from '../../console/lib/browser-alerts.js';

const running = { state: 'running', trading: 'ok' };

describe('browser alerts', () => {
  it('none on the first reading, even of a killed and halted system (the banner says so)', () => {
    expect(browserAlerts(null, { state: 'killed', trading: 'halted' })).toEqual([]);
  });

  it('a kill when the state becomes killed, once', () => {
    const killed = { state: 'killed', trading: 'ok' };
    expect(browserAlerts(running, killed)).toEqual([
      { tag: 'tcs-kill', title: 'Trading killed', body: 'The kill switch is engaged: no order runs.' },
    ]);
    expect(browserAlerts(killed, killed)).toEqual([]);
  });

  it('a halt with its reason when the trading process becomes halted, once; a pause is no alert', () => {
    const halted = { state: 'running', trading: 'halted', reason: 'halted (store_unreachable): the store is away' };
    expect(browserAlerts(running, halted)).toEqual([
      { tag: 'tcs-halt', title: 'Trading halted', body: 'halted (store_unreachable): the store is away' },
    ]);
    expect(browserAlerts(halted, halted)).toEqual([]);
    expect(browserAlerts(running, { state: 'paused', trading: 'ok' })).toEqual([]);
  });
});
