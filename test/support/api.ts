/** Creates the real API (instance + plugin) on a real store for tests, with a freshly generated key. */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../src/api/app.js';
import { createApi } from '../../src/api/create-api.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import { generateKey } from '../../src/domain/keys.js';
import { openTestStore } from './stores.js';
import type { StoreKind, TestStore } from './stores.js';

export const TEST_SYMBOLS = 'BTCUSDT,ETHUSDT,SOLUSDT:spot';

export interface TestApi extends TestStore {
  app: FastifyInstance;
  key: string;
  auth: { authorization: string };
  close(): Promise<void>;
}

export async function openTestApi(
  kind: StoreKind,
  options: {
    controlRateLimit?: number;
    /** COMMAND_QUEUE_MAX (the default when absent). */
    commandQueueMax?: number;
    apiKeys?: string[];
    eventStream?: ApiDeps['eventStream'];
    logger?: FastifyBaseLogger;
    /** EXECUTION_MODE=live's exchange (GET /control/mode names it); paper when absent. */
    exchange?: { exchange: string; testnet: boolean };
    /** The audit archive /reports/decisions reads below the store's floor (opened and closed by the test). */
    archive?: ApiDeps['archive'];
  } = {},
): Promise<TestApi> {
  const testStore = await openTestStore(kind);
  const key = generateKey();
  const app = await createApi(
    {
      store: testStore.store,
      apiKeys: options.apiKeys ?? [key],
      instruments: parseInstruments(TEST_SYMBOLS),
      defaultMode: options.exchange ? 'live' : 'paper',
      ...(options.exchange ? { exchange: options.exchange } : {}),
      controlRateLimit: options.controlRateLimit ?? 10_000,
      ...(options.commandQueueMax === undefined ? {} : { commandQueueMax: options.commandQueueMax }),
      ...(options.eventStream ? { eventStream: options.eventStream } : {}),
      ...(options.archive === undefined ? {} : { archive: options.archive }),
    },
    options.logger ?? false,
  );
  await app.ready();
  return {
    ...testStore,
    app,
    key,
    auth: { authorization: `Bearer ${key}` },
    async close() {
      await app.close();
      await testStore.cleanup();
    },
  };
}
