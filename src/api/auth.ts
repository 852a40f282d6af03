/**
 * Bearer authentication for /control and /reports (spec section 5). Every accepted key is compared
 * in constant time (sha256 digests through timingSafeEqual, all keys checked, no early exit), so
 * neither the key nor which rotation slot matched leaks through timing. The request learns only a
 * key id, never the key. A request with two Authorization headers is refused outright. `authPlugin`
 * shares both (the `keyId` request decoration and the `authenticate` hook) with every scope, under
 * the name other plugins depend on.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { keyId } from '../domain/keys.js';
import { sendError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Id of the API key that authenticated this request (see runtime/keys.ts), '' when none. */
    keyId: string;
  }
  interface FastifyInstance {
    /** onRequest hook refusing a request without an accepted bearer key (401). */
    authenticate: onRequestHookHandler;
  }
}

export const AUTH_PLUGIN = 'tcs-auth';

export const authPlugin = fp<{ apiKeys: readonly string[] }>(
  async (app, { apiKeys }) => {
    app.decorateRequest('keyId', '');
    app.decorate('authenticate', bearerAuth(apiKeys));
  },
  { name: AUTH_PLUGIN, fastify: '5.x' },
);

interface AcceptedKey {
  digest: Buffer;
  id: string;
}

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i; // the scheme name is case-insensitive (RFC 7235)

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export function bearerAuth(apiKeys: readonly string[]): onRequestHookHandler {
  if (apiKeys.length === 0) throw new Error('bearerAuth needs at least one key');
  const accepted: AcceptedKey[] = apiKeys.map((key) => ({ digest: digest(key), id: keyId(key) }));

  return function authenticate(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    if (authorizationHeaderCount(request.raw.rawHeaders) > 1) {
      unauthorized(reply, 'more than one Authorization header: send exactly one', true);
      return;
    }
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      unauthorized(reply, 'missing bearer token: send Authorization: Bearer <SERVICE_API_KEY>', false);
      return;
    }
    const match = BEARER.exec(header);
    if (!match?.[1]) {
      unauthorized(reply, 'malformed Authorization header: expected Bearer <SERVICE_API_KEY>', true);
      return;
    }
    const presented = digest(match[1]);
    let matchedId = '';
    for (const key of accepted) {
      // Compare against every key so the time taken does not depend on which one matched.
      if (timingSafeEqual(presented, key.digest)) matchedId = key.id;
    }
    if (matchedId === '') {
      unauthorized(reply, 'invalid bearer token', true);
      return;
    }
    request.keyId = matchedId;
    done();
  };
}

/**
 * Node keeps only the first of repeated Authorization headers (`request.headers`), so which
 * credential counts would depend on header order; only the raw list shows them all.
 */
function authorizationHeaderCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === 'authorization') count++;
  return count;
}

function unauthorized(reply: FastifyReply, message: string, invalidToken: boolean): void {
  reply.header('WWW-Authenticate', invalidToken ? 'Bearer realm="tcs", error="invalid_token"' : 'Bearer realm="tcs"');
  sendError(reply, 401, 'TCS_UNAUTHORIZED', message);
}
