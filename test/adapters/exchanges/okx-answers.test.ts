/**
 * OKX's rate-limit and clock answers as its profile reads them (`readAnswer`), in OKX's own
 * envelope: 50011/50061 under HTTP 429 hold requests (Retry-After when given, else one 2 s window),
 * 50102/50112 make the clock watch re-measure, and anything else is read as plain HTTP (a proxy's
 * 429 or 418). Without the profile's reading, the gate saw an OKX rate limit only as a bare 429.
 */
import { describe, expect, it } from 'vitest';
import { OKX } from '../../../src/adapters/exchanges/okx.js';

const envelope = (code: string, msg: string) => JSON.stringify({ code, msg, data: [] });

describe('OKX answers', () => {
  it('reads a rate limit by its code, with the Retry-After it gave or one window', () => {
    expect(OKX.readAnswer(429, {}, envelope('50011', 'Too Many Requests'))).toEqual({
      kind: 'rate_limited',
      label: 'code 50011',
      retryAfterS: null,
      untilWall: null,
      fallbackMs: 2_000,
    });
    expect(
      OKX.readAnswer(429, { 'Retry-After': '3' }, envelope('50061', 'Sub-account rate limit exceeded')),
    ).toMatchObject({ kind: 'rate_limited', label: 'code 50061', retryAfterS: 3 });
  });

  it('reads a refused timestamp as the clock', () => {
    expect(OKX.readAnswer(401, {}, envelope('50102', 'Timestamp request expired'))).toMatchObject({ kind: 'clock' });
    expect(OKX.readAnswer(401, {}, envelope('50112', 'Invalid OK-ACCESS-TIMESTAMP'))).toMatchObject({ kind: 'clock' });
  });

  it('an ordinary answer or refusal is none of these; a proxy’s 418 is still a ban', () => {
    expect(OKX.readAnswer(200, {}, envelope('0', ''))).toBeNull();
    expect(OKX.readAnswer(200, {}, envelope('51008', 'Insufficient margin'))).toBeNull();
    expect(OKX.readAnswer(418, {}, 'banned')).toMatchObject({ kind: 'banned', label: '418' });
  });
});
