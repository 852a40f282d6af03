/**
 * The browser's own notifications for what an operator must not miss with the tab in the background
 * (issue 35): a kill, and the trading process halting for safety. Worked out from two readings in a
 * row (the control state and /health's trading process), so each change raises one alert; the first
 * reading raises none (a console opened on a killed system says so in its banner, not in a pop-up).
 * The browser shows them only once the operator allowed it (console/components/browser-alerts.tsx).
 */

export interface AlertReading {
  /** The control state (running, paused, killed), or null when unknown. */
  state: string | null;
  /** /health's trading_process status (ok, halted, stale, …), or null when unknown. */
  trading: string | null;
  /** /health's trading_process reason while halted (`halted (<reason>): <cause>`). */
  reason?: string | undefined;
}

export interface BrowserAlert {
  /** The browser replaces an alert of the same tag rather than stacking them. */
  tag: 'tcs-kill' | 'tcs-halt';
  title: string;
  body: string;
}

export function browserAlerts(before: AlertReading | null, now: AlertReading): BrowserAlert[] {
  if (before === null) return [];
  const alerts: BrowserAlert[] = [];
  if (now.state === 'killed' && before.state !== 'killed')
    alerts.push({ tag: 'tcs-kill', title: 'Trading killed', body: 'The kill switch is engaged: no order runs.' });
  if (now.trading === 'halted' && before.trading !== 'halted')
    alerts.push({
      tag: 'tcs-halt',
      title: 'Trading halted',
      body: now.reason ?? 'The trading process stopped opening exposure for safety.',
    });
  return alerts;
}
