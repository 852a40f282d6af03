/**
 * The trading process's fail-closed settings (docs/operate/faults.md): how long the
 * control plane may be silent, how long the store may be unreachable, the trading lease and where
 * the latch file lives. Each variable is in .env.example.
 */
import { ConfigError, readInt, readNumber } from '../config.js';

export interface SafetyConfig {
  /** CONTROL_PLANE_TIMEOUT (seconds in the variable): null when set to 0 (no control plane to wait for). */
  controlPlaneTimeoutMs: number | null;
  /** STORE_LOSS_HALT_MS. */
  storeLossHaltMs: number;
  /** TRADING_LEASE_MS: how long the lease lasts unless renewed (renewed every third of it). */
  leaseMs: number;
  /** TRADING_LATCH_PATH. */
  latchPath: string;
}

export function readSafetyConfig(env: NodeJS.ProcessEnv): SafetyConfig {
  const timeout = readNumber(env, 'CONTROL_PLANE_TIMEOUT', 10, 0, 3600);
  const leaseMs = readInt(env, 'TRADING_LEASE_MS', 10_000, 2_000, 600_000);
  const storeLossHaltMs = readInt(env, 'STORE_LOSS_HALT_MS', 3_000, 100, 600_000);
  if (storeLossHaltMs * 3 > leaseMs * 2) {
    // The last renewal may be a third of the lease old when the store goes away, and noticing takes a
    // command deadline and a tick more: halting within two thirds of the lease means a successor never
    // finds this process still trading.
    throw new ConfigError(
      `STORE_LOSS_HALT_MS (${storeLossHaltMs}) must be at most two thirds of TRADING_LEASE_MS (${leaseMs})`,
    );
  }
  return {
    controlPlaneTimeoutMs: timeout === 0 ? null : Math.round(timeout * 1000),
    storeLossHaltMs,
    leaseMs,
    latchPath: readLatchPath(env),
  };
}

/** TRADING_LATCH_PATH alone (the API reads the latch too, and needs none of the trading settings). */
export function readLatchPath(env: NodeJS.ProcessEnv): string {
  return env.TRADING_LATCH_PATH?.trim() || 'var/trading-latch.json';
}
