/**
 * The exchange registry and every profile in it are complete (src/adapters/exchanges/): each
 * supported exchange is a ccxt exchange, every refusal code has a kind the venue knows, the facts the
 * generic live venue reads are there and consistent, and an unsupported exchange is refused naming
 * the supported ones.
 */
import ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import {
  exchangeProfile,
  findProfile,
  profileOfError,
  profiles,
  SUPPORTED_EXCHANGES,
} from '../../../src/adapters/exchanges/registry.js';
import { openLiveExchange } from '../../../src/adapters/exchanges/open-exchange.js';
import type { ExchangeId } from '../../../src/adapters/exchanges/registry.js';
import { exchangeClientId } from '../../../src/adapters/live-venue/client-ids.js';

const KINDS = new Set(['rate_limited', 'retryable', 'clock', 'unknown', 'duplicate', 'rejected']);

describe('the exchange registry', () => {
  it('lists each supported exchange once, each a ccxt exchange with its profile', () => {
    expect(SUPPORTED_EXCHANGES.length).toBeGreaterThan(0);
    expect(new Set(SUPPORTED_EXCHANGES).size).toBe(SUPPORTED_EXCHANGES.length);
    for (const id of SUPPORTED_EXCHANGES) {
      expect(ccxt.exchanges).toContain(id);
      expect(exchangeProfile(id).id).toBe(id);
    }
    expect(profiles().map((p) => p.id)).toEqual([...SUPPORTED_EXCHANGES]);
  });

  it('refuses an unknown exchange with a clear error listing the supported ones', () => {
    expect(findProfile('bybit-not-yet')).toBeNull();
    expect(() => exchangeProfile('bybit-not-yet')).toThrow(
      `exchange "bybit-not-yet" is not supported for live trading: supported are ${SUPPORTED_EXCHANGES.join(', ')}`,
    );
  });

  it('the one opener refuses an unsupported exchange before any client is made, naming the supported ones', async () => {
    const config = { exchange: 'kraken' as ExchangeId, testnet: true, url: null };
    await expect(openLiveExchange(config, { apiKey: 'k', secret: 's' })).rejects.toThrow(
      `exchange "kraken" is not supported for live trading: supported are ${SUPPORTED_EXCHANGES.join(', ')}`,
    );
  });

  it('the one opener gives a supported exchange its profile, testnet switched on', async () => {
    for (const id of SUPPORTED_EXCHANGES) {
      const opened = await openLiveExchange(
        { exchange: id, testnet: true, url: null },
        { apiKey: 'k', secret: 's', passphrase: 'p' },
      );
      expect(opened.profile.id).toBe(id);
      expect(opened.exchange.id).toBe(id);
      await opened.exchange.close();
    }
  });

  it("an exchange whose keys have a passphrase (OKX) is opened with it as ccxt's password, and refused without it", async () => {
    const config = { exchange: 'okx' as ExchangeId, testnet: true, url: null };
    await expect(openLiveExchange(config, { apiKey: 'k', secret: 's' })).rejects.toThrow(
      /OKX USDT swaps keys have a passphrase: set EXCHANGE_API_PASSPHRASE/,
    );
    const { exchange } = await openLiveExchange(config, { apiKey: 'k', secret: 's', passphrase: 'p4ss' });
    expect(exchange.password).toBe('p4ss');
    // OKX's demo trading is its mainnet address with this header (ccxt: setSandboxMode).
    expect(exchange.headers).toMatchObject({ 'x-simulated-trading': '1' });
    await exchange.close();
    const binance = await openLiveExchange(
      { exchange: 'binanceusdm', testnet: true, url: null },
      { apiKey: 'k', secret: 's', passphrase: 'p4ss' },
    );
    expect(binance.exchange.password).toBeFalsy();
    await binance.exchange.close();
  });

  it('finds the exchange that raised a ccxt error by the id ccxt starts its message with, and no other', () => {
    for (const id of SUPPORTED_EXCHANGES)
      expect(profileOfError(new ccxt.ExchangeError(`${id} {"code":1,"msg":"x"}`))?.id).toBe(id);
    expect(profileOfError(new ccxt.ExchangeError('kraken {"code":1}'))).toBeNull();
    expect(profileOfError('not an error')).toBeNull();
  });
});

describe.each(profiles().map((p) => [p.id, p] as const))('the %s profile', (_id, profile) => {
  it('gives every refusal code a kind the venue knows, the duplicate code among them', () => {
    expect(profile.refusalCodes.size).toBeGreaterThan(0);
    for (const [code, kind] of profile.refusalCodes) {
      expect(Number.isInteger(code)).toBe(true);
      expect(KINDS.has(kind), `code ${code}: ${kind}`).toBe(true);
    }
    expect(profile.refusalCodes.get(profile.duplicateOrderCode)).toBe('duplicate');
    expect(profile.refusalCodes.get(profile.timestampRefusedCode)).toBe('clock');
    for (const code of profile.notProcessedCodes) expect(profile.refusalCodes.has(code)).toBe(true);
  });

  it('reads its own code from an error ccxt raised for it', () => {
    const code = profile.duplicateOrderCode;
    const { code: field, message } = profile.errorBody;
    const body = JSON.stringify({ [field]: code, [message]: 'dup' });
    expect(profile.errorCode(new ccxt.InvalidOrder(`${profile.id} ${body}`))).toBe(code);
    expect(profile.errorCode(new ccxt.InvalidOrder(`${profile.id} see code ${code}`))).toBeNull();
  });

  it('has a client id rule our hashed ids fit, and the ids that fit are sent as they are', () => {
    const { pattern, maxLength } = profile.clientOrderId;
    expect(maxLength).toBeGreaterThanOrEqual(16);
    const long = 'x'.repeat(maxLength + 1);
    const hashed = exchangeClientId(long, profile.clientOrderId);
    expect(hashed.length).toBeLessThanOrEqual(maxLength);
    expect(pattern.test(hashed)).toBe(true);
    const plain = profile.clientOrderId.alphanumericOnly ? 's1BTCUSDT0' : 's-1-BTCUSDT-0';
    expect(exchangeClientId(plain, profile.clientOrderId)).toBe(plain);
    // Ours with separators are hashed where the rule takes letters and digits only (OKX), and fit.
    const ours = exchangeClientId('s-1-BTCUSDT-0', profile.clientOrderId);
    expect(pattern.test(ours) && ours.length <= maxLength).toBe(true);
  });

  it('says how orders are made post-only, resting and reduce-only, and how stops are addressed', () => {
    expect(Object.keys(profile.limitParams.gtc).length).toBeGreaterThan(0);
    expect(Object.keys(profile.limitParams.postOnly).length).toBeGreaterThan(0);
    expect(profile.limitParams.postOnly).not.toEqual(profile.limitParams.gtc);
    // Spot has no reduce-only flag (the venue caps the sell at the balance) and no exchange stop here.
    if (profile.market === 'spot') {
      expect(profile.reduceOnlyParams).toEqual({});
      expect(profile.exchangeStops).toBeNull();
      return;
    }
    expect(Object.keys(profile.reduceOnlyParams).length).toBeGreaterThan(0);
    expect(profile.exchangeStops!.params('100', 'tcs-stop-x')).toMatchObject({ clientOrderId: 'tcs-stop-x' });
  });

  it('has book depths in increasing order, a recvWindow, a weight limit and an income page', () => {
    if (profile.bookDepths) expect([...profile.bookDepths].sort((a, b) => a - b)).toEqual([...profile.bookDepths]);
    expect(profile.recvWindowMs).toBeGreaterThan(0);
    expect(profile.weights.defaultLimitPerMinute).toBeGreaterThan(0);
    expect(profile.weights.weigh('x', 'y', Number.NaN)).toBe(1);
    if (profile.income) expect(profile.incomePageSize).toBeGreaterThan(0);
  });

  it("names what replaces the dead-man's switch when it has none", () => {
    expect(profile.deadMansSwitchNote.length).toBeGreaterThan(10);
  });
});
