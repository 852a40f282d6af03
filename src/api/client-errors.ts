/**
 * Errors Node's HTTP parser raises before a request reaches Fastify (the server's `clientError`):
 * headers too large, a malformed or mismatched Content-Length, a request that cannot be parsed, a
 * request that took too long to arrive. They get the standard error body with a stable `TCS_*` code
 * like every other error (errors.ts), which Fastify's default handler leaves out. The connection is
 * closed afterwards: after a parse error the rest of the byte stream cannot be trusted.
 */
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { ConnectionError, FastifyInstance } from 'fastify';
import type { ErrorBody } from './errors.js';

interface ClientFailure {
  status: number;
  code: string;
  message: string;
}

const HEADERS_TOO_LARGE: ClientFailure = {
  status: 431,
  code: 'TCS_HEADERS_TOO_LARGE',
  message: 'request headers too large (at most 16 KiB in all)',
};
const BAD_CONTENT_LENGTH: ClientFailure = {
  status: 400,
  code: 'TCS_BAD_CONTENT_LENGTH',
  message: 'the body does not match the Content-Length header (malformed, repeated, or more bytes than were sent)',
};
const TIMEOUT: ClientFailure = {
  status: 408,
  code: 'TCS_REQUEST_TIMEOUT',
  message: 'the request did not arrive in time',
};
const MALFORMED: ClientFailure = { status: 400, code: 'TCS_MALFORMED_REQUEST', message: 'malformed HTTP request' };

/** Node's parser error codes (llhttp `HPE_*`, plus the server's timeout). */
const BY_NODE_CODE: Record<string, ClientFailure> = {
  HPE_HEADER_OVERFLOW: HEADERS_TOO_LARGE,
  HPE_INVALID_CONTENT_LENGTH: BAD_CONTENT_LENGTH,
  HPE_UNEXPECTED_CONTENT_LENGTH: BAD_CONTENT_LENGTH,
  // The connection ended in the middle of a body: fewer bytes came than Content-Length announced.
  HPE_INVALID_EOF_STATE: BAD_CONTENT_LENGTH,
  ERR_HTTP_REQUEST_TIMEOUT: TIMEOUT,
};

function clientFailureFor(err: ConnectionError): ClientFailure {
  return BY_NODE_CODE[(err as NodeJS.ErrnoException).code ?? ''] ?? MALFORMED;
}

/** Fastify calls it bound to the instance (for its logger). */
export function clientErrorHandler(this: FastifyInstance, err: ConnectionError, socket: Socket): void {
  const nodeCode = (err as NodeJS.ErrnoException).code;
  // A reset connection has nobody left to answer (as in Fastify's own handler).
  if (nodeCode === 'ECONNRESET' || socket.destroyed) return;
  const { status, code, message } = clientFailureFor(err);
  const body: ErrorBody = { statusCode: status, code, error: STATUS_CODES[status] ?? 'Error', message };
  const text = JSON.stringify(body);
  this.log.debug({ nodeCode, status }, 'client error');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${body.error}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}
