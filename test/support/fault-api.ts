/**
 * The real API listening on loopback over a store a fault test breaks on purpose (its own
 * redis-server, a SQLite file it locks or tampers with). Calls go through real HTTP with an abort
 * bound, so a handler that hangs on a dead store fails the test instead of stalling it: the bound is
 * generous (2.5 s, for a loaded 2-core machine), the real latencies live in bench/.
 */
import type { FastifyInstance } from 'fastify';
import { createApi } from '../../src/api/create-api.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import { generateKey } from '../../src/domain/keys.js';
import type { Store } from '../../src/ports/store.js';
import { TEST_SYMBOLS } from './api.js';

/** No answer within this bound fails the call (the API promises one within 1 s). */
export const ANSWER_BOUND_MS = 2_500;

export interface ListeningApi {
  app: FastifyInstance;
  base: string;
  /** A real HTTP call with the API key; rejects when no answer arrives within ANSWER_BOUND_MS. */
  call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function listenApi(store: Store): Promise<ListeningApi> {
  const key = generateKey();
  const app = await createApi({
    store,
    apiKeys: [key],
    instruments: parseInstruments(TEST_SYMBOLS),
    defaultMode: 'paper',
    controlRateLimit: 10_000,
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    base,
    call: (method, path, body) => callApi(base, key, method, path, body),
    close: () => app.close(),
  };
}

export async function callApi(
  base: string,
  key: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  boundMs = ANSWER_BOUND_MS,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(base + path, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(boundMs),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Polls `check` every 50 ms until it holds, at most `timeoutMs` (a bounded loop). */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
