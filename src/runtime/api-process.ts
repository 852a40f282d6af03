/**
 * Composition root of the API process: read config, open the store, create the Fastify instance
 * with the API's server options, register the API plugin and listen; on SIGINT/SIGTERM close the
 * instance, whose onClose closes the store this process opened. Refuses to start without a proper
 * SERVICE_API_KEY.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { hostname } from 'node:os';
import { openStore } from '../adapters/open-store.js';
import { startApiHeartbeat } from '../application/api-heartbeat.js';
import { withControl } from '../application/store-views.js';
import { trustedControl } from '../application/trusted-control.js';
import { NO_MEMORY } from '../domain/store-identity.js';
import { systemClock } from '../ports/clock.js';
import { api, apiServerOptions } from '../api/app.js';
import { readApiConfig } from './config.js';
import { createLogger } from './logger.js';
import { exitCleanlyOnSignals } from './shutdown.js';
import { PACKAGE_ROOT } from './package-root.js';

const packageVersion = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

export async function runApiProcess(env: NodeJS.ProcessEnv): Promise<void> {
  const config = readApiConfig(env); // throws ConfigError with a clear message
  const logger = createLogger('tcs-api', config.logLevel);
  const raw = await openStore(config.storeUrl);
  // The API remembers the store it serves: a store that empties, is replaced or goes back in time
  // under it is answered with 503, never served as a fresh `running` (src/application/trusted-control.ts).
  const store = withControl(raw, trustedControl(raw.control, { memory: NO_MEMORY }));
  const app = Fastify(apiServerOptions(logger));
  const stopBeat = startApiHeartbeat({
    kv: raw.kv,
    clock: systemClock,
    intervalMs: config.heartbeatMs,
    identity: { pid: process.pid, host: hostname() },
    onError: (err) => logger.debug({ err }, 'api heartbeat write failed'),
  });
  app.addHook('onClose', async () => {
    stopBeat();
    await store.close();
  });
  await app.register(api, {
    store,
    apiKeys: config.apiKeys,
    instruments: config.instruments,
    defaultMode: config.executionMode,
    controlRateLimit: config.controlRateLimit,
    version: packageVersion,
  });

  exitCleanlyOnSignals(logger, 'api', () => app.close());

  const address = await app.listen({ host: config.host, port: config.port });
  logger.info({ address, store: store.description, keys: config.apiKeys.length }, 'api listening');
}
