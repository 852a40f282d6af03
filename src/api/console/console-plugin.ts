/**
 * The operator console at `/`: the page, script and stylesheet bin/build.mjs bundled into
 * dist/console, served as static files (public: the page holds no data, and every call it makes
 * carries the operator's key). A Content-Security-Policy lets the page load and call only this
 * origin, so it can reach no other host even if a dependency tried; no inline script or style is
 * needed. Only the files present at startup are routed (no wildcard), so unknown paths still get
 * the API's standard 404.
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendError } from '../errors.js';

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * dist/console of this checkout or image: the nearest directory above this module that has a
 * package.json, whether this runs from src/ (tsx, tests) or from dist/src/ (the compiled service).
 */
export function consoleAssetsDir(from = dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      const assets = join(dir, 'dist', 'console');
      return existsSync(join(assets, 'index.html')) ? assets : null;
    }
    if (dirname(dir) === dir) return null;
  }
}

export async function consolePlugin(app: FastifyInstance, { root }: { root: string | null }): Promise<void> {
  if (root === null) {
    // An API built without its console (sources only, no `npm run build`): say so instead of a bare 404.
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      sendError(reply, 503, 'TCS_CONSOLE_NOT_BUILT', 'the operator console is not built: run `npm run build`'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    decorateReply: false,
    index: ['index.html'],
    // The files change with every build and are small: revalidate (ETag) instead of caching stale code.
    cacheControl: false,
    setHeaders: (reply) => {
      reply.header('cache-control', 'no-cache');
      reply.header('content-security-policy', CONSOLE_CSP);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
    },
  });
}
