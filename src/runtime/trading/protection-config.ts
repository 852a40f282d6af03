/**
 * The protective exits' configuration (issue 20, item 4): STOP_LOSS, TAKE_PROFIT, TRAILING_STOP
 * (fractions of the entry price in (0, 1); unset = off), COOLDOWN_AFTER_STOP (cycles, default 0) and
 * PROTECTION_PARAMS, JSON keyed by strategy name with the fields that differ for that strategy's
 * positions, e.g. {"funding_rate_contrarian":{"stop_loss":0.05,"take_profit":null}}. All off by
 * default: an exit changes what a strategy's backtest means, so it is the operator's choice.
 */
import { parseProtectionRule } from '../../domain/protection.js';
import type { ProtectionRule, ProtectionSettings } from '../../domain/protection.js';
import { ConfigError, readInt } from '../config.js';

function readFraction(env: NodeJS.ProcessEnv, name: string): number | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  const value = Number(raw);
  if (!(Number.isFinite(value) && value > 0 && value < 1))
    throw new ConfigError(`${name} must be a fraction of the entry price in (0, 1), e.g. 0.03, got "${raw}"`);
  return value;
}

export function readProtectionConfig(env: NodeJS.ProcessEnv): ProtectionSettings {
  const global: ProtectionRule = {
    stopLoss: readFraction(env, 'STOP_LOSS'),
    takeProfit: readFraction(env, 'TAKE_PROFIT'),
    trailingStop: readFraction(env, 'TRAILING_STOP'),
    cooldownAfterStop: readInt(env, 'COOLDOWN_AFTER_STOP', 0, 0, 1_000_000),
  };
  return { global, byStrategy: readProtectionParams(env.PROTECTION_PARAMS) };
}

function readProtectionParams(raw: string | undefined): Record<string, Partial<ProtectionRule>> {
  if (!raw?.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new ConfigError(`PROTECTION_PARAMS is not valid JSON: ${(err as Error).message}`);
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(parsed) || !Object.values(parsed).every(isObject))
    throw new ConfigError('PROTECTION_PARAMS must be a JSON object of objects, keyed by strategy name');
  const byStrategy: Record<string, Partial<ProtectionRule>> = {};
  for (const [name, entry] of Object.entries(parsed)) {
    try {
      byStrategy[name] = parseProtectionRule(entry as Record<string, unknown>, `PROTECTION_PARAMS.${name}`);
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
  }
  return byStrategy;
}

/** A PROTECTION_PARAMS entry for a strategy that is not running is a typo that would silently do nothing. */
export function assertProtectedStrategiesRun(settings: ProtectionSettings, running: readonly string[]): void {
  for (const name of Object.keys(settings.byStrategy))
    if (!running.includes(name))
      throw new ConfigError(
        `PROTECTION_PARAMS names ${name}, which is not a running strategy (running: ${running.join(', ')})`,
      );
}
