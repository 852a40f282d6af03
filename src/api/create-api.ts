/**
 * An API instance ready for `inject` or `listen`: the instance created with the API's server
 * options and the plugin registered, not yet listening. For tests and benches; the API process
 * does the same steps itself (runtime/api-process.ts) and then listens.
 */
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { api, apiServerOptions } from './app.js';
import type { ApiDeps } from './app.js';

export async function createApi(deps: ApiDeps, logger: FastifyBaseLogger | boolean = false): Promise<FastifyInstance> {
  const app = Fastify(apiServerOptions(logger));
  await app.register(api, deps);
  return app;
}
