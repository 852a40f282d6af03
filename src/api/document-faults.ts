/**
 * How the API reports a shared document it refuses (DocumentError: malformed, or of a version this
 * release does not read): the request answers 503 with the reason, and the log gets one line when a
 * document starts being refused and one when it is readable again — never one per request, since
 * the console polls these routes every few seconds.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DocumentError } from '../domain/documents/document-error.js';

export interface DocumentFaultLog {
  /** A read refused `err.key`: logged unless it was already failing. */
  refused(err: DocumentError): void;
  /** `key` was read and accepted: logged when it had been failing. */
  accepted(key: string): void;
}

export function createDocumentFaultLog(log: FastifyBaseLogger): DocumentFaultLog {
  const failing = new Set<string>();
  return {
    refused(err) {
      if (failing.has(err.key)) return;
      failing.add(err.key);
      log.warn(
        { key: err.key, fault: err.kind, detail: err.message },
        'shared document refused; answering 503 until it is readable',
      );
    },
    accepted(key) {
      if (failing.delete(key)) log.info({ key }, 'shared document readable again');
    },
  };
}

/** The 503 body's code and message for a refused document. */
export function documentFaultReply(err: DocumentError): { code: string; message: string } {
  return {
    code: err.code,
    message:
      `Could not read what the trading process published (nothing was changed): ${err.message}. ` +
      'It is refused rather than shown; the trading process writes a good one within a heartbeat once it runs this release.',
  };
}
