/**
 * One error handler and one 404 handler, so every error has Fastify's standard body
 * `{statusCode, code, error, message}`; routes that answer an application failure use `sendError`
 * for the same body. Validation failures become 422 (spec section 7); a store failure or a refused
 * shared document 503. A 500 never
 * carries the original message or a stack: those go to the log only.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { DocumentError } from '../domain/documents/document-error.js';
import { CommandQueueFullError } from '../ports/command-queue.js';
import { ControlContentionError, isStoreFailure } from '../ports/store-errors.js';
import { documentFaultReply } from './document-faults.js';
import type { DocumentFaultLog } from './document-faults.js';
import { storeFailureReply } from './store-failure-reply.js';

export interface ErrorBody {
  statusCode: number;
  code: string;
  error: string;
  message: string;
}

export function sendError(reply: FastifyReply, statusCode: number, code: string, message: string): FastifyReply {
  const body: ErrorBody = { statusCode, code, error: STATUS_CODES[statusCode] ?? 'Error', message };
  return reply.code(statusCode).type('application/json; charset=utf-8').send(body);
}

export function installErrorHandlers(app: FastifyInstance, documentFaults: DocumentFaultLog): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err.validation) {
      return sendError(reply, 422, err.code ?? 'FST_ERR_VALIDATION', err.message);
    }
    const status = err.statusCode ?? 500;
    if (err instanceof CommandQueueFullError) {
      // A flood, not a fault: nothing was queued; the kill switch is never refused for it.
      reply.header('Retry-After', String(err.retryAfterS));
      return sendError(reply, 503, err.code, `The command was NOT queued: ${err.message}; try again later`);
    }
    if (err instanceof ControlContentionError) {
      // Other writers kept winning the race (or a kill is being recorded): nothing was written.
      request.log.warn({ code: err.code, reason: err.message }, 'control change contended');
      reply.header('Retry-After', String(err.retryAfterS));
      return sendError(reply, 503, err.code, `The change was NOT recorded: ${err.message}`);
    }
    if (status >= 500) {
      // A store that failed is not a bug: 503 with what was not done and why (adapters redact it).
      if (isStoreFailure(err)) {
        // The cause under its own key: a second `msg` would be a duplicate key that jq (last wins) drops.
        request.log.warn({ code: err.code, cause: err.message }, 'store failure');
        const { code, message } = storeFailureReply(err, request);
        return sendError(reply, 503, code, message);
      }
      // A shared document that is malformed or of another version is a fault, never data: 503.
      if (err instanceof DocumentError) {
        documentFaults.refused(err);
        const { code, message } = documentFaultReply(err);
        return sendError(reply, 503, code, message);
      }
      request.log.error({ err }, 'request failed');
      return sendError(reply, 500, 'TCS_INTERNAL', 'internal server error');
    }
    // 4xx from Fastify itself (malformed JSON 400, unsupported media type 415, body too large 413, 429…).
    return sendError(reply, status, err.code ?? 'TCS_BAD_REQUEST', err.message);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'TCS_NOT_FOUND', `Route ${request.method}:${request.url.split('?')[0]} not found`),
  );
}
