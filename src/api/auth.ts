/**
 * Bearer authentication for /control and /reports (spec section 5). Every accepted key is compared
 * in constant time (sha256 digests through timingSafeEqual, all keys checked, no early exit), so
 * neither the key nor which rotation slot matched leaks through timing. The request learns only a
 * key id, never the key. A request with two Authorization headers is refused outright. A refused
 * request is marked with the reason (`authRefusal`) and is not logged on its own: request-log.ts
 * counts refusals per window, so a flood of bad keys cannot fill the log. `authPlugin` shares the
 * decorations and the `authenticate` hook with every scope, under the name other plugins depend on.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { keyId } from '../domain/keys.js';
import { sendError } from './errors.js';
import type { RefusalReason } from './refusal-tally.js';

/** Why authentication refused a request; never anything of the credential itself. */
export type AuthRefusal = Exclude<RefusalReason, 'not_found'>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Id of the API key that authenticated this request (see runtime/keys.ts), '' when none. */
    keyId: string;
    /** Why this request was refused with 401, null when it was not (or did not need a key). */
    authRefusal: AuthRefusal | null;
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
    app.decorateRequest('authRefusal', null);
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
      refuse(request, reply, 'duplicate_header', 'more than one Authorization header: send exactly one');
      return;
    }
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      refuse(request, reply, 'missing', 'missing bearer token: send Authorization: Bearer <SERVICE_API_KEY>');
      return;
    }
    const match = BEARER.exec(header);
    if (!match?.[1]) {
      refuse(request, reply, 'malformed', 'malformed Authorization header: expected Bearer <SERVICE_API_KEY>');
      return;
    }
    const presented = digest(match[1]);
    let matchedId = '';
    for (const key of accepted) {
      // Compare against every key so the time taken does not depend on which one matched.
      if (timingSafeEqual(presented, key.digest)) matchedId = key.id;
    }
    if (matchedId === '') {
      refuse(request, reply, 'invalid', 'invalid bearer token');
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

function refuse(request: FastifyRequest, reply: FastifyReply, reason: AuthRefusal, message: string): void {
  request.authRefusal = reason;
  // RFC 6750: a request without credentials gets no error code; one with bad credentials gets invalid_token.
  const invalidToken = reason !== 'missing';
  reply.header('WWW-Authenticate', invalidToken ? 'Bearer realm="tcs", error="invalid_token"' : 'Bearer realm="tcs"');
  sendError(reply, 401, 'TCS_UNAUTHORIZED', message);
}
