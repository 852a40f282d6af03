/**
 * `tcs notify` reads STORE_TIMEOUT_MS like every process that opens the store (it used to open the
 * store with the default deadline whatever was set): a value out of range is a configuration error
 * naming the variable, before the store is opened.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/runtime/config.js';
import { runNotifier } from '../../src/runtime/notify.js';

describe('tcs notify and STORE_TIMEOUT_MS', () => {
  it('refuses a deadline out of range, naming it, before opening the store', async () => {
    const run = runNotifier({
      // A path that cannot be opened: reaching the store would fail differently.
      STORE_URL: 'sqlite:/nonexistent-dir/tcs.db',
      NOTIFY_WEBHOOK_URLS: 'http://127.0.0.1:9/hook',
      NOTIFY_WEBHOOK_SECRET: 'x'.repeat(32),
      STORE_TIMEOUT_MS: '5',
    });
    await expect(run).rejects.toBeInstanceOf(ConfigError);
    await expect(run).rejects.toThrow(/STORE_TIMEOUT_MS/);
  });
});
