/**
 * `tcs risk reset --reason TEXT [--wait SECONDS]`: the operator's audited reset of the drawdown
 * reference from a shell, the same request as POST /control/risk/reset (audit entry, then a queued
 * `risk_reset` command) written straight to the store in STORE_URL. The trading process carries it
 * out while it runs; this command waits for that (default 15 s) and prints the peak before and after.
 * Exit 0: reset done. Exit 3: queued, not carried out within --wait (no trading process running?):
 * it will be when the trading process next claims its commands.
 */
import { hostname, userInfo } from 'node:os';
import { openStore } from '../adapters/open-store.js';
import { authenticatedStore } from '../application/authenticated-store.js';
import { requestRiskReset } from '../application/risk-reset-request.js';
import { systemClock } from '../ports/clock.js';
import { terminalSafe } from '../domain/terminal-text.js';
import { readControlSecret, readStoreUrl } from './config.js';

const POLL_MS = 200;

export interface RiskResetOptions {
  reason: string;
  waitMs: number;
}

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;

function operator(): string {
  try {
    return `cli:${userInfo().username}@${hostname()}`;
  } catch {
    return `cli@${hostname()}`;
  }
}

export async function resetRisk(env: NodeJS.ProcessEnv, options: RiskResetOptions): Promise<number> {
  // An sqlite file that is not there is a wrong STORE_URL, not a store to create.
  const secret = readControlSecret(env); // before opening anything: a missing secret is exit 2, not a store error
  // Signed like the API's: the trading process refuses a command without its MAC.
  const store = authenticatedStore(await openStore(readStoreUrl(env), { mustExist: true }), secret);
  try {
    const requested = await requestRiskReset(store, systemClock, options.reason, operator());
    const seen = requested.before;
    console.log(
      `risk reset queued as ${requested.command_id}` +
        (seen ? ` (last published: NAV ${seen.nav}, peak ${seen.peak_nav}, drawdown ${pct(seen.drawdown)})` : ''),
    );
    const deadline = performance.now() + options.waitMs; // monotonic: a clock step must not end the wait
    for (;;) {
      const command = await store.commands.get(requested.command_id);
      if (command?.status === 'done') {
        const result = command.result ?? {};
        if (result.status !== 'done') {
          console.error(`tcs: the trading process did not reset: ${terminalSafe(JSON.stringify(result))}`);
          return 1;
        }
        console.log(
          `drawdown reference reset: peak NAV ${String(result.previous_peak_nav)} → ${String(result.peak_nav)} ` +
            `(drawdown was ${pct(Number(result.drawdown_before))}); recorded in the audit trail`,
        );
        return 0;
      }
      if (performance.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    console.error(
      `tcs: not carried out within ${options.waitMs / 1000} s: is the trading process running? ` +
        `The command ${requested.command_id} stays queued and runs when the trading process next claims commands.`,
    );
    return 3;
  } finally {
    await store.close();
  }
}
