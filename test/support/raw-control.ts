/**
 * Rewrites fields of a test store's control record straight in its backend, past the adapters and
 * the application: what anyone who can write the store (but holds no CONTROL_SECRET) could do.
 */
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { redisKeys } from '../../src/adapters/redis/keys.js';
import type { TestStore } from './stores.js';

export interface RawControlFields {
  state?: string;
  epoch?: number;
  reason?: string;
  /** null: the record as a release before MACs left it (no MAC at all). */
  mac?: null;
}

export async function rewriteControlRecord(t: TestStore, fields: RawControlFields): Promise<void> {
  const entries = Object.entries(fields);
  if (t.url.startsWith('sqlite:')) {
    const db = new Database(t.url.slice('sqlite:'.length));
    try {
      db.prepare(`UPDATE control SET ${entries.map(([k]) => `${k} = @${k}`).join(', ')} WHERE id = 1`).run(fields);
    } finally {
      db.close();
    }
    return;
  }
  const url = new URL(t.url);
  const keys = redisKeys(url.searchParams.get('prefix') ?? '');
  url.search = '';
  const redis = new Redis(url.toString(), { maxRetriesPerRequest: 1 });
  try {
    const set = entries.filter(([, v]) => v !== null);
    if (set.length > 0) await redis.hset(keys.control, ...set.flatMap(([k, v]) => [k, String(v)]));
    if (fields.mac === null) await redis.hdel(keys.control, 'mac');
  } finally {
    redis.disconnect();
  }
}
