/**
 * Body parsing: JSON only (any other content type is a 415). The JSON parser treats an empty body as "no body" (so `POST /control/resume` and a pause
 * without a reason work with or without `Content-Type: application/json`), and otherwise uses
 * Fastify's own safe parser (prototype-poisoning protection included).
 */
import type { FastifyInstance } from 'fastify';

export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, body.toString(), done);
  });
}
