/**
 * Composition root of the API process: read config, open the store, create the Fastify instance
 * with the API's server options, register the API plugin and listen; on SIGINT/SIGTERM close the
 * instance, whose onClose closes the store this process opened. Refuses to start without a proper
 * SERVICE_API_KEY.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { openStore } from '../adapters/open-store.js';
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
  const store = await openStore(config.storeUrl, { timeoutMs: config.storeTimeoutMs });
  const app = Fastify(apiServerOptions(logger));
  app.addHook('onClose', async () => store.close());
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
