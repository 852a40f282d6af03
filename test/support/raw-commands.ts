/**
 * Writes a command straight into a test store's backend, past the adapter's encoding (which
 * validates): what a previous release, another program or a hand edit could have left in the queue.
 */
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { redisKeys } from '../../src/adapters/redis/keys.js';
import { enqueueCommandScript } from '../../src/adapters/redis/lua-sources.js';
import type { TestStore } from './stores.js';

export interface RawCommand {
  id: string;
  type: string;
  /** The stored payload text, as is. */
  payload: string;
  enqueued_at?: string;
}

export async function plantStoredCommand(t: TestStore, command: RawCommand): Promise<void> {
  const at = command.enqueued_at ?? new Date().toISOString();
  if (t.url.startsWith('sqlite:')) {
    const db = new Database(t.url.slice('sqlite:'.length));
    try {
      db.prepare(
        `INSERT INTO commands (id, type, payload, enqueued_at, status, attempts) VALUES (?, ?, ?, ?, 'pending', 0)`,
      ).run(command.id, command.type, command.payload, at);
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
    await enqueueCommandScript.run(
      redis,
      [keys.command(command.id), keys.commandsPending, keys.commandsOrder, keys.commandsLeased],
      [command.id, command.type, command.payload, at, keys.commandsChannel, ''],
    );
  } finally {
    redis.disconnect();
  }
}
