/**
 * Composition root of the API process: read config, open the store, create the Fastify instance
 * with the API's server options, register the API plugin and listen; on SIGINT/SIGTERM close the
 * instance, whose onClose closes the store this process opened. Refuses to start (exit 2) without a
 * proper SERVICE_API_KEY or when its address cannot be bound; under `tcs start` it tells the
 * supervisor once it listens.
 */
import { archivedHash, openArchiveForReading } from './audit-archive.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { hostname } from 'node:os';
import { openStore } from '../adapters/open-store.js';
import { startApiHeartbeat } from '../application/api-heartbeat.js';
import { authenticatedStore } from '../application/authenticated-store.js';
import { withControl } from '../application/store-views.js';
import { lastKillResetEpoch } from '../application/kill-reset-proof.js';
import { trustedControl } from '../application/trusted-control.js';
import { NO_MEMORY } from '../domain/store-identity.js';
import { systemClock } from '../ports/clock.js';
import { StoreFaultError } from '../ports/store-errors.js';
import { api, apiServerOptions } from '../api/app.js';
import { RequestLog } from '../api/request-log.js';
import { ConfigError, readApiConfig } from './config.js';
import { createLogger } from './logger.js';
import { exitCleanlyOnSignals } from './shutdown.js';
import { apiStoreView } from './api-store-view.js';
import { readLatchPath } from './trading/safety-config.js';
import { PACKAGE_ROOT } from './package-root.js';
import { tellSupervisor } from './supervisor-channel.js';

const packageVersion = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

export async function runApiProcess(env: NodeJS.ProcessEnv): Promise<void> {
  const config = readApiConfig(env); // throws ConfigError with a clear message
  const logger = createLogger('tcs-api', config.logLevel);
  // Every command this API queues and control record it writes is signed, every one it reads checked.
  const raw = authenticatedStore(
    await openStore(config.storeUrl, { timeoutMs: config.storeTimeoutMs }),
    config.controlSecret,
  );
  // The API remembers the store it serves: a store that empties, is replaced or goes back in time
  // under it is answered with 503, never served as a fresh `running` (src/application/trusted-control.ts).
  const trusted = trustedControl(raw.control, {
    memory: NO_MEMORY,
    events: raw.events,
    lastResetEpoch: () => lastKillResetEpoch(raw.events),
    archivedHash: (seq) => archivedHash(env, seq),
  });
  const store = withControl(raw, trusted);
  // Decisions page on into the archive below the store's window; read-only, connected on first use.
  const { archive, problem: archiveProblem } = openArchiveForReading(env);
  if (archiveProblem !== null)
    logger.warn({ problem: archiveProblem }, 'audit archive not readable: /reports/decisions serves the store only');
  // Refused requests (bad keys, unknown routes) are counted per window, not logged one by one.
  const requestLog = new RequestLog();
  const app = Fastify(apiServerOptions(logger, requestLog));
  let stopBeat = () => {};
  app.addHook('onClose', async () => {
    stopBeat();
    await archive?.close().catch(() => {}); // the store is closed whatever the archive says
    await store.close();
  });
  await app.register(api, {
    store,
    // /health knows a first start from a lost store, and why the trading process here waits, from its latch.
    storeView: apiStoreView({
      raw,
      storeUrl: config.storeUrl,
      latchPath: readLatchPath(env),
      seenRecord: () => trusted.memory().storeId !== null,
    }),
    apiKeys: config.apiKeys,
    instruments: config.instruments,
    defaultMode: config.executionMode,
    exchange: config.exchange,
    controlRateLimit: config.controlRateLimit,
    commandQueueMax: config.commandQueueMax,
    version: packageVersion,
    requestLog,
    archive,
  });

  exitCleanlyOnSignals(logger, 'api', () => app.close());

  const address = await listen(app, config.host, config.port);
  // Only an API that listens tells the trading process that someone can stop it.
  stopBeat = startApiHeartbeat({
    kv: raw.kv,
    // Beat only while this API trusts the store: an API that answers every control call with 503 is
    // no control plane, and the trading process must not take it for one. A store with no record yet
    // is the exception: the trading process's first start is about to create it.
    // It also judges the audit trail's head against what this API has seen: a trail gone back (a
    // restore at the same epoch) makes every route answer 503 until the store is adopted.
    precondition: () =>
      store.control.read().then(
        () => trusted.checkHead(),
        (err: unknown) => {
          if (!(err instanceof StoreFaultError && err.kind === 'empty')) throw err;
        },
      ),
    clock: systemClock,
    intervalMs: config.heartbeatMs,
    identity: { pid: process.pid, host: hostname() },
    onError: (err) => logger.debug({ err }, 'api heartbeat write failed'),
  });
  logger.info({ address, store: store.description, keys: config.apiKeys.length }, 'api listening');
  // Under `tcs start` the trading process starts only now: nothing trades that this API cannot stop.
  await tellSupervisor({ type: 'listening', address });
}

/** Errors of listen() that restarting cannot cure: the operator must change HOST/PORT or free the port. */
const ADDRESS_ERRORS: Record<string, string> = {
  EADDRINUSE: 'is already in use (another tcs, or another program); stop it or choose another PORT',
  EADDRNOTAVAIL: 'is not an address of this host; check HOST',
  EACCES: 'may not be bound by this user (ports below 1024 need privileges); choose another PORT',
};

async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
  try {
    return await app.listen({ host, port });
  } catch (err) {
    const why = ADDRESS_ERRORS[(err as NodeJS.ErrnoException).code ?? ''];
    if (!why) throw err;
    await app.close(); // closes the store this process opened
    throw new ConfigError(`cannot listen: ${host}:${port} ${why}`);
  }
}
