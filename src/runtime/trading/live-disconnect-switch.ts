/**
 * The held dead-man's switch of the live venue (the profile's `disconnectCancel`: Bybit's DCP), when
 * it is to be held: at start the window is set on the exchange and the first connection made (either
 * failing fails the start: a switch never armed protects nothing), then the guard keeps it
 * (src/adapters/live-venue/disconnect-guard.ts). Down for half its window, the venue refuses cycles
 * and the safety monitor halts new exposure (`exchange_switch_down`, on /health); the other half is
 * the reconnect's. It is not held where our exchange stops may rest and the switch cancels stops
 * too: it would cancel the stop after a crash and leave the position unprotected, and the stop is
 * the layer that closes positions.
 */
import type { Exchange } from 'ccxt';
import type { Logger } from 'pino';
import { DisconnectGuard } from '../../adapters/live-venue/disconnect-guard.js';
import type { ExchangeProfile } from '../../adapters/exchanges/profile.js';

export interface HeldSwitch {
  /** For the live venue (LiveVenueOptions.disconnectSwitch). */
  venue: { graceMs: number; down(): { forMs: number; reason: string } | null; stop(): void };
  /** For the safety monitor: one line while down past the grace, else null. */
  switchDown(): string | null;
}

/** Whether the profile's held switch is to be held, given whether our exchange stops may rest. */
export function holdsSwitch(profile: ExchangeProfile, exchangeStops: boolean): boolean {
  const held = profile.disconnectCancel;
  if (!held) return false;
  return !held.cancelsStops || !exchangeStops || profile.exchangeStops === null;
}

/** The held switch, opened; null when the profile has none or it is not to be held (`holding`), said in the log. */
export async function openHeldSwitch(
  profile: ExchangeProfile,
  exchange: Exchange,
  holding: boolean,
  deps: { monotonic(): number; log: Logger },
): Promise<HeldSwitch | null> {
  const held = profile.disconnectCancel;
  if (!held) return null;
  if (!holding) {
    deps.log.info(
      {},
      "live venue: the exchange's dead-man's switch (it cancels stops too) is not held while exchange stops may rest; the stops protect positions",
    );
    return null;
  }
  await held.setWindow(exchange, held.windowMs);
  const guard = new DisconnectGuard({
    connect: () => held.connect(exchange),
    monotonic: deps.monotonic,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    // Several attempts fit in the window before the exchange acts.
    maxBackoffMs: held.windowMs / 4,
    report: (change) =>
      change.up
        ? deps.log.info({ windowMs: held.windowMs }, "live venue: the exchange's dead-man's switch connection is up")
        : deps.log.warn({ reason: change.reason }, "live venue: the exchange's dead-man's switch connection is down"),
  });
  await guard.open();
  const graceMs = held.windowMs / 2;
  const venue = { graceMs, down: () => guard.down(), stop: () => guard.stop() };
  return {
    venue,
    switchDown: () => {
      const down = guard.down();
      if (down === null || down.forMs < graceMs) return null;
      return `the exchange's dead-man's switch connection has been down ${Math.round(down.forMs)} ms (grace ${graceMs} ms, window ${held.windowMs} ms): ${down.reason}`;
    },
  };
}
