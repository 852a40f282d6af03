/**
 * KeyValueStore over the `kv` table: one row per key holding JSON text. A single upsert statement is
 * atomic on its own, so no explicit transaction is needed.
 */
import type { KeyValueStore } from '../../ports/key-value-store.js';
import type { SqliteDatabase } from './connection.js';

export class SqliteKeyValueStore implements KeyValueStore {
  private readonly select;
  private readonly upsert;
  private readonly remove;

  constructor(db: SqliteDatabase) {
    this.select = db.prepare<[string], { value: string }>('SELECT value FROM kv WHERE key = ?');
    this.upsert = db.prepare<[string, string]>(
      'INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.remove = db.prepare<[string]>('DELETE FROM kv WHERE key = ?');
  }

  async get<T = unknown>(key: string): Promise<T | null> {
    const row = this.select.get(key);
    return row === undefined ? null : (JSON.parse(row.value) as T);
  }

  async set(key: string, value: unknown): Promise<void> {
    const text = JSON.stringify(value);
    // JSON.stringify(undefined) (or a function) yields undefined: refuse rather than store garbage.
    if (text === undefined) throw new TypeError(`kv value for ${key} is not JSON-serialisable`);
    this.upsert.run(key, text);
  }

  async delete(key: string): Promise<void> {
    this.remove.run(key);
  }
}
