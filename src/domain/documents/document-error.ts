/**
 * The fault a store document is when it is not what its registry entry says (src/domain/documents/
 * registry.ts): not the schema's shape, or a version this release does not know. It is never data: a
 * reader that meets it reports the document as missing-with-a-reason (health says why, the safety
 * monitor counts no API as seen, a route answers 503), and a writer that would produce it is a bug.
 * It is not a store failure (isStoreFailure is false): the store answered; what it holds is wrong.
 */

export type DocumentFaultKind = 'malformed' | 'unknown_version';

export class DocumentError extends Error {
  override name = 'DocumentError';
  readonly code = 'TCS_DOCUMENT_INVALID';

  constructor(
    readonly key: string,
    readonly kind: DocumentFaultKind,
    detail: string,
  ) {
    super(`${key}: ${detail}`);
  }
}
