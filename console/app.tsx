/**
 * The console's shell: the sign-in page until a key is accepted, then the banner, the controls and
 * the panels. Signing out (or a key refused mid-session) clears the key from sessionStorage.
 */
import { useCallback, useState } from 'preact/hooks';
import { Account } from './components/account.js';
import { CandleChart } from './components/candle-chart.js';
import { Controls } from './components/controls.js';
import { Decisions } from './components/decisions.js';
import { Fills } from './components/fills.js';
import { HealthPanel } from './components/health.js';
import { Machines } from './components/machines.js';
import { Messages } from './components/messages.js';
import { NavChart } from './components/nav-chart.js';
import { Notifications } from './components/notifications.js';
import { RiskResetDialog } from './components/risk-reset-dialog.js';
import { SignIn } from './components/sign-in.js';
import { StateBanner } from './components/state-banner.js';
import { Trades } from './components/trades.js';
import { clearKey, loadKey, saveKey } from './lib/session.js';
import { orphanedSymbols } from './lib/orphaned.js';
import { useConsole } from './use-console.js';

function Console({ apiKey, signOut }: { apiKey: string; signOut(why?: string): void }) {
  const c = useConsole(apiKey, signOut);
  // One drawdown-reset dialog, opened from the controls or from the banner's reducing notice.
  const [resetOpen, setResetOpen] = useState(false);
  const openReset = useCallback(() => setResetOpen(true), []);
  return (
    <>
      <header class="top">
        <h1>Trading Control Service</h1>
        <StateBanner
          status={c.status}
          heartbeat={c.heartbeat}
          stream={c.stream}
          risk={c.health?.components.risk}
          onResetDrawdown={openReset}
        />
        <button type="button" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <Messages messages={c.messages} dismiss={c.dismiss} />
      <main class="grid">
        <Controls c={c} onResetDrawdown={openReset} />
        <Account account={c.account} orphaned={orphanedSymbols(c.health)} />
        <NavChart points={c.nav} />
        <Fills fills={c.fills} />
        <Trades fills={c.fills} />
        <CandleChart candles={c.candles} fills={c.fills} />
        <HealthPanel c={c} />
        <Notifications
          notifications={c.notifications}
          reading={{
            state: c.status?.state ?? null,
            trading: c.health?.components.trading_process.status ?? null,
            reason: c.health?.components.trading_process.reason,
          }}
        />
        <Machines c={c} />
        <Decisions c={c} />
      </main>
      <RiskResetDialog c={c} open={resetOpen} onClose={() => setResetOpen(false)} />
      <footer>
        Charts: TradingView Lightweight Charts™ (Apache-2.0). Times in UTC. API reference at <a href="/docs">/docs</a>.
      </footer>
    </>
  );
}

export function App() {
  const [key, setKey] = useState<string | null>(loadKey);
  const [notice, setNotice] = useState<string | null>(null);
  const signOut = useCallback((why?: string) => {
    clearKey();
    setNotice(why ?? null);
    setKey(null);
  }, []);
  if (!key) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(k) => {
          saveKey(k);
          setNotice(null);
          setKey(k);
        }}
      />
    );
  }
  return <Console key={key} apiKey={key} signOut={signOut} />;
}
