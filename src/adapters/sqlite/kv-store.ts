/**
 * KeyValueStore over the `kv` table: one row per key holding JSON text. A plain upsert is atomic on
 * its own; a fenced one (the trading process's account and venue writes) checks the lease row's
 * fence in the same IMMEDIATE transaction, so a process that lost the lease writes nothing.
 */
import type { KeyValueSetOptions, KeyValueStore } from '../../ports/key-value-store.js';
import { staleFence } from '../../ports/store-errors.js';
import type { SqliteDatabase } from './connection.js';
import type { StoreAccess } from './store-access.js';

export class SqliteKeyValueStore implements KeyValueStore {
  private readonly select;
  private readonly upsert;
  private readonly remove;
  private readonly fencedUpsert: (key: string, text: string, fence: number) => void;

  constructor(
    db: SqliteDatabase,
    private readonly access: StoreAccess,
  ) {
    this.select = db.prepare<[string], { value: string }>('SELECT value FROM kv WHERE key = ?');
    this.upsert = db.prepare<[string, string]>(
      'INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.remove = db.prepare<[string]>('DELETE FROM kv WHERE key = ?');
    const leaseFence = db.prepare<[], { fence: number }>('SELECT fence FROM lease WHERE id = 1');
    const fenced = db.transaction((key: string, text: string, fence: number) => {
      const current = leaseFence.get()?.fence;
      if (current !== fence) throw staleFence(key, fence, current);
      this.upsert.run(key, text);
    });
    this.fencedUpsert = (key, text, fence) => fenced.immediate(key, text, fence);
  }

  async get<T = unknown>(key: string): Promise<T | null> {
    const row = await this.access.read(() => this.select.get(key));
    return row === undefined ? null : (JSON.parse(row.value) as T);
  }

  async set(key: string, value: unknown, fence?: number, options?: KeyValueSetOptions): Promise<void> {
    const text = JSON.stringify(value);
    // JSON.stringify(undefined) (or a function) yields undefined: refuse rather than store garbage.
    if (text === undefined) throw new TypeError(`kv value for ${key} is not JSON-serialisable`);
    const op = () => {
      if (fence === undefined) this.upsert.run(key, text);
      else this.fencedUpsert(key, text, fence);
    };
    await (options?.atOnce ? this.access.writeAtOnce(op) : this.access.write(op));
  }

  async delete(key: string): Promise<void> {
    await this.access.write(() => this.remove.run(key));
  }
}
