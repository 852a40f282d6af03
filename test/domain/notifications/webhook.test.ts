import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  deliveryId,
  notificationBody,
  parseWebhookTargets,
  signatureHeader,
  verifySignature,
} from '../../../src/domain/notifications/webhook.js';
import type { Notification } from '../../../src/domain/notifications/select.js';

const n: Notification = {
  id: 'abc:kill:0',
  seq: 12,
  at: '2026-11-28T07:00:00.000Z',
  kind: 'kill',
  symbol: null,
  title: 'Trading killed',
  text: 'killed by api: runaway',
  data: { reason: 'runaway' },
};

describe('parseWebhookTargets', () => {
  it('reads format prefixes and kind filters', () => {
    const t = parseWebhookTargets(
      'https://a.example/h, discord:https://d.example/x?kinds=kill,fill ; slack:http://s.example/y',
    );
    expect(t.map((x) => x.format)).toEqual(['json', 'discord', 'slack']);
    expect(t[1]!.kinds).toEqual(['kill', 'fill']);
    expect(t[1]!.url).toBe('https://d.example/x');
    expect(t[0]!.kinds).toBeNull();
    expect(new Set(t.map((x) => x.id)).size).toBe(3);
  });

  it('refuses a bad URL or kind without echoing the URL (it may carry a token)', () => {
    expect(() => parseWebhookTargets('ftp://secret-token@x')).toThrow(/NOTIFY_WEBHOOK_URLS/);
    expect(() => parseWebhookTargets('ftp://secret-token@x')).not.toThrow(/secret-token/);
    expect(() => parseWebhookTargets('https://x.example/?kinds=nope')).toThrow(/nope/);
    expect(parseWebhookTargets('')).toEqual([]);
  });
});

describe('delivery id and signature', () => {
  it('a delivery id is stable per (notification, target) and differs across targets', () => {
    expect(deliveryId(n.id, 't1')).toBe(deliveryId(n.id, 't1'));
    expect(deliveryId(n.id, 't1')).not.toBe(deliveryId(n.id, 't2'));
  });

  it('the receiver verifies the signature; a changed body or old timestamp fails', () => {
    const body = JSON.stringify({ a: 1 });
    const header = signatureHeader('s3cret', body, 1_764_313_200);
    expect(header).toMatch(/^t=1764313200,v1=[0-9a-f]{64}$/);
    expect(verifySignature('s3cret', body, header, 1_764_313_200 + 10)).toBe(true);
    expect(verifySignature('s3cret', body + ' ', header, 1_764_313_200)).toBe(false);
    expect(verifySignature('other', body, header, 1_764_313_200)).toBe(false);
    expect(verifySignature('s3cret', body, header, 1_764_313_200 + 301)).toBe(false);
  });
});

describe('bodies', () => {
  it('json carries the versioned schema; discord and slack their own shapes', () => {
    const json = notificationBody(n, 'json', 'did-1') as Record<string, unknown>;
    expect(json).toMatchObject({ schema: 'tcs.notification/1', delivery_id: 'did-1', kind: 'kill', seq: 12 });
    expect(notificationBody(n, 'discord', 'did-1')).toMatchObject({
      content: expect.stringContaining('Trading killed'),
    });
    expect(notificationBody(n, 'slack', 'did-1')).toMatchObject({ text: expect.stringContaining('runaway') });
  });
});

describe('backoff', () => {
  it('doubles from 1 s and stops at 10 min', () => {
    expect([1, 2, 3].map(backoffMs)).toEqual([1000, 2000, 4000]);
    expect(backoffMs(40)).toBe(600_000);
  });
});
