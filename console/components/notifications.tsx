/**
 * The notifications (issue 35): what `tcs notify` sends to webhooks, as GET /reports/notifications
 * makes them from the newest audit entries (fills, kills, control changes, resets, halts ended, risk
 * state changes, liquidations, agent errors), newest first. Read at sign-in and again as entries
 * arrive; the list is the same whether or not a notifier runs.
 */
import type { AlertReading } from '../lib/browser-alerts.js';
import { utc } from '../lib/format.js';
import type { NotificationRow } from '../lib/types.js';
import { BrowserAlerts } from './browser-alerts.js';

export function Notifications({ notifications, reading }: { notifications: NotificationRow[]; reading: AlertReading }) {
  return (
    <section class="panel notifications" aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      <p class="note">What the notifier sends, from the newest 200 audit entries.</p>
      <BrowserAlerts reading={reading} />
      <table data-testid="notifications">
        <caption>Notifications ({notifications.length}), newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Kind</th>
            <th scope="col">Symbol</th>
            <th scope="col">What</th>
          </tr>
        </thead>
        <tbody>
          {notifications.length === 0 ? (
            <tr>
              <td colSpan={4}>Nothing to tell yet.</td>
            </tr>
          ) : (
            notifications.map((n) => (
              <tr key={n.id} data-testid="notification-row" class={`notification-${n.kind}`}>
                <td>{utc(n.at)}</td>
                <td>{n.kind}</td>
                <td>{n.symbol ?? '—'}</td>
                <td>
                  <strong>{n.title}</strong> {n.text}
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}
