/**
 * An API instance ready for `inject` or `listen`: the instance created with the API's server
 * options and the plugin registered, not yet listening, with one request log shared by both
 * (request-log.ts; its window timer injectable). For tests and benches; the API process does the
 * same steps itself (runtime/api-process.ts) and then listens.
 */
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { api, apiServerOptions } from './app.js';
import type { ApiDeps } from './app.js';
import { RequestLog } from './request-log.js';
import type { RequestLogOptions } from './request-log.js';

export async function createApi(
  deps: Omit<ApiDeps, 'requestLog'>,
  logger: FastifyBaseLogger | boolean = false,
  requestLogOptions: RequestLogOptions = {},
): Promise<FastifyInstance> {
  const requestLog = new RequestLog(requestLogOptions);
  const app = Fastify(apiServerOptions(logger, requestLog));
  await app.register(api, { ...deps, requestLog });
  return app;
}
