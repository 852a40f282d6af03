/**
 * Per-key rate limiting for control POSTs. Registered globally off: only the routes that ask for
 * it are throttled (see routes/control.ts). It keys on the authenticated key id, so it depends on
 * the auth plugin's `keyId` decoration.
 */
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { AUTH_PLUGIN } from './auth.js';

export const rateLimitPlugin = fp(
  async (app) => {
    await app.register(rateLimit, {
      global: false,
      keyGenerator: (request) => request.keyId || request.ip,
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        code: 'TCS_RATE_LIMITED',
        error: 'Too Many Requests',
        message: `at most ${context.max} control calls per ${context.after} per key; retry in ${Math.ceil(context.ttl / 1000)} s`,
      }),
    });
  },
  { name: 'tcs-rate-limit', fastify: '5.x', dependencies: [AUTH_PLUGIN] },
);
