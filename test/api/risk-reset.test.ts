/**
 * POST /control/risk/reset (issue 20, an addition to the spec): on both stores, the call is audited
 * (`control_call`, with the drawdown the last published account showed) and a `risk_reset` command
 * is queued for the trading process; without the key it is a 401 and bad input a 422 (malformed JSON
 * a 400), and neither changes anything: no audit entry, no command.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PORTFOLIO_KEY } from '../../src/domain/runtime-documents.js';
import { keyId } from '../../src/domain/keys.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { STORE_KINDS } from '../support/stores.js';

const URL = '/control/risk/reset';

describe.each(STORE_KINDS)('POST /control/risk/reset on %s', (kind) => {
  let api: TestApi;
  const post = (body: string, headers: Record<string, string> = api.auth) =>
    api.app.inject({ method: 'POST', url: URL, headers: { ...headers, 'content-type': 'application/json' }, body });
  /** Everything a refused call must leave as it was (claiming is the queue's only listing; these tests queue nothing else). */
  const snapshot = async () => ({
    audit: await api.store.events.query({ limit: 100 }),
    commands: await api.store.commands.claim('peek', { max: 100, leaseMs: 1, now: 0 }).then((c) => c.length),
  });

  describe('accepted', () => {
    afterEach(async () => api?.close());

    it('audits the call with the drawdown seen and queues the reset for the trading process', async () => {
      api = await openTestApi(kind);
      await api.store.kv.set(PORTFOLIO_KEY, {
        v: 1,
        nav: 89_000,
        peakNav: 100_000,
        cash: 89_000,
        realizedPnl: -11_000,
        unrealizedPnl: 0,
        fundingPnl: 0,
        feesPaid: 0,
        positions: [],
        openOrders: [],
        ts: 0,
      });
      const res = await post(JSON.stringify({ reason: '  reviewed the 11 % loss  ' }));
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        action: 'risk_reset',
        reason: 'reviewed the 11 % loss',
        command_id: expect.stringMatching(/^risk-reset-/),
        before: { nav: 89_000, peak_nav: 100_000, drawdown: 0.11 },
        message: expect.stringContaining('queued for the trading process'),
      });
      const command = await api.store.commands.get(body.command_id);
      expect(command).toMatchObject({
        status: 'pending',
        type: 'risk_reset',
        payload: { reason: 'reviewed the 11 % loss', actor: keyId(api.key) },
      });
      const [audit] = await api.store.events.query({ kind: 'control_call', limit: 1 });
      expect(audit?.body).toEqual({
        call: 'risk_reset',
        actor: keyId(api.key),
        reason: 'reviewed the 11 % loss',
        command_id: body.command_id,
        before: { nav: 89_000, peak_nav: 100_000, drawdown: 0.11 },
      });
    });

    it('answers before: null when no account was published yet', async () => {
      api = await openTestApi(kind);
      const res = await post(JSON.stringify({ reason: 'first day' }));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().before).toBeNull();
    });
  });

  // One API for every refusal: each compares the store before and after its own call, so a shared
  // store proves as much (and what one refusal wrongly left would show in the next). A fresh API
  // for each was 16 of this file's 22 instances, some 0.15 s of CPU apiece.
  describe('refused, changing nothing', () => {
    beforeAll(async () => {
      api = await openTestApi(kind);
    });
    afterAll(async () => api?.close());

    it('is a 401 without the key, and changes nothing', async () => {
      const before = await snapshot();
      const res = await post(JSON.stringify({ reason: 'no key' }), {});
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ statusCode: 401 });
      expect(res.body).not.toContain(api.key);
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['no body', ''],
      ['no reason', '{}'],
      ['an empty reason', '{"reason":""}'],
      ['a blank reason', '{"reason":"   "}'],
      ['a reason that is not a string', '{"reason":42}'],
      ['an unknown field', '{"reason":"ok","peak_nav":1}'],
      ['a reason over 500 characters', JSON.stringify({ reason: 'x'.repeat(501) })],
    ])('refuses %s with a 422 and changes nothing', async (_label, payload) => {
      const before = await snapshot();
      const res = await post(payload);
      expect([400, 422], res.body).toContain(res.statusCode);
      if (payload !== '') expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: expect.stringMatching(/^(FST_ERR_|TCS_)/) });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses malformed JSON with a 400 and changes nothing', async () => {
      const before = await snapshot();
      const res = await post('{"reason": "unterminated');
      expect(res.statusCode, res.body).toBe(400);
      expect(await snapshot()).toEqual(before);
    });
  });
});
