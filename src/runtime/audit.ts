/** `tcs audit verify`: re-hashes the event store's chain and reports the first bad entry. */
import { openStore } from '../adapters/open-store.js';
import { readStoreUrl } from './config.js';

export async function verifyAuditTrail(env: NodeJS.ProcessEnv): Promise<number> {
  const store = await openStore(readStoreUrl(env));
  try {
    const result = await store.events.verify();
    if (result.ok) {
      console.log(`audit trail intact: ${result.count} entries, head ${result.head}`);
      return 0;
    }
    console.error(
      `audit trail BROKEN at entry ${result.firstBad.seq}: ${result.firstBad.reason} (${result.count} entries)`,
    );
    return 1;
  } finally {
    await store.close();
  }
}
