/**
 * The exchanges live trading supports, each with its profile (./profile.ts): what EXCHANGE accepts
 * (src/runtime/exchange-config.ts) and what the opener, the live venue and the live feed read. A new
 * exchange is one line here after its profile.
 */
import type { Exchange } from 'ccxt';
import { BINANCE_SPOT } from './binance-spot.js';
import { BINANCE_USDM } from './binanceusdm.js';
import { BITGET } from './bitget.js';
import { BYBIT } from './bybit.js';
import { OKX } from './okx.js';
import type { ExchangeProfile } from './profile.js';

const PROFILES = [BINANCE_USDM, BYBIT, OKX, BINANCE_SPOT, BITGET] as const;

/** A supported exchange's ccxt id. */
export type ExchangeId = (typeof PROFILES)[number]['id'];

/** The ccxt ids EXCHANGE accepts, in the order they are listed to people. */
export const SUPPORTED_EXCHANGES: readonly ExchangeId[] = PROFILES.map((p) => p.id);

/** Every supported exchange's profile (the completeness test walks them). */
export function profiles(): readonly ExchangeProfile[] {
  return PROFILES;
}

/** The profile of a supported exchange, or null (any other ccxt id: public market data only). */
export function findProfile(id: string): ExchangeProfile | null {
  return PROFILES.find((p: ExchangeProfile) => p.id === id) ?? null;
}

/** The profile of a supported exchange; anything else is refused naming the supported ones. */
export function exchangeProfile(id: string): ExchangeProfile {
  const profile = findProfile(id);
  if (!profile)
    throw new Error(
      `exchange "${id}" is not supported for live trading: supported are ${SUPPORTED_EXCHANGES.join(', ')}`,
    );
  return profile;
}

/** The profile of the exchange a ccxt client speaks to (its `id`). */
export function profileOf(exchange: Exchange): ExchangeProfile {
  return exchangeProfile(String((exchange as { id?: unknown }).id));
}

/**
 * The profile of the exchange that raised a ccxt error, or null: ccxt starts every message it builds
 * from an exchange's answer or a failed request with the exchange's id (`binanceusdm {"code":…}`), so
 * the judgement of an error needs no profile passed along every path that can fail.
 */
export function profileOfError(err: unknown): ExchangeProfile | null {
  if (!(err instanceof Error)) return null;
  const id = /^\S+/.exec(err.message)?.[0] ?? '';
  return findProfile(id);
}

/**
 * The fields of an error answer (`errorBody`) by the exchange's profile, or, when the exchange is not
 * known (a ccxt id outside the registry, a bare client), by the first profile whose message field
 * `body` has; null when none.
 */
export function errorFieldsFor(
  body: Record<string, unknown> | null,
  profile: ExchangeProfile | null,
): ExchangeProfile['errorBody'] | null {
  if (profile) return profile.errorBody;
  return PROFILES.map((p: ExchangeProfile) => p.errorBody).find((f) => typeof body?.[f.message] === 'string') ?? null;
}
