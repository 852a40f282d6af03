/**
 * Browser notifications for kills and safety halts (console/lib/browser-alerts.ts): a switch the
 * operator turns on once (the browser asks for permission), then each kill or halt seen on the live
 * stream pops up even with the tab in the background. Nothing is shown before permission is granted,
 * and a browser without the Notification API says so.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { browserAlerts } from '../lib/browser-alerts.js';
import type { AlertReading } from '../lib/browser-alerts.js';

const supported = () => typeof Notification !== 'undefined';

export function BrowserAlerts({ reading }: { reading: AlertReading }) {
  const [permission, setPermission] = useState<string>(supported() ? Notification.permission : 'unsupported');
  const last = useRef<AlertReading | null>(null);
  useEffect(() => {
    const alerts = browserAlerts(last.current, reading);
    last.current = reading;
    if (!supported() || Notification.permission !== 'granted') return;
    for (const a of alerts) new Notification(a.title, { body: a.body, tag: a.tag });
  }, [reading.state, reading.trading, reading.reason]);

  if (permission === 'unsupported') return <p class="note">This browser cannot show notifications.</p>;
  if (permission === 'granted')
    return (
      <p class="note" data-testid="browser-alerts">
        Browser notifications are on for kills and halts.
      </p>
    );
  if (permission === 'denied')
    return (
      <p class="note" data-testid="browser-alerts">
        Browser notifications are blocked for this page (allow them in the browser's site settings).
      </p>
    );
  return (
    <p class="note" data-testid="browser-alerts">
      <button type="button" onClick={async () => setPermission(await Notification.requestPermission())}>
        Notify me in this browser of kills and halts
      </button>
    </p>
  );
}
