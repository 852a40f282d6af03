/**
 * What every fault test checks of an API answer: /health says 503 and names the store and why; a
 * control or report call says 503 in the standard error body, with a message that tells the
 * operator nothing was recorded and that the trading process halts on its own.
 */
import { expect } from 'vitest';

export function expectStoreFailure(
  answer: { status: number; body: Record<string, unknown> },
  code: 'TCS_STORE_UNAVAILABLE' | 'TCS_STORE_FAULT',
): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(503);
  expect(Object.keys(answer.body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
  expect(answer.body).toMatchObject({ statusCode: 503, code, error: 'Service Unavailable' });
  // A write says it was not recorded; a read says it could not read (it had nothing to record).
  expect(answer.body.message).toMatch(/NOT recorded|Could not read the store/);
  expect(answer.body.message).toMatch(/halts on its own/);
}

export function expectHealthDown(answer: { status: number; body: Record<string, unknown> }, reason: RegExp): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(503);
  const store = (answer.body.components as { store: Record<string, unknown> }).store;
  expect(answer.body.status).toBe('down');
  expect(store.status).toBe('down');
  expect(String(store.reason)).toMatch(reason);
  expect(String(store.error).length).toBeGreaterThan(0);
}
