/**
 * The typed face of the key-value port for the documents in the registry
 * (src/domain/documents/registry.ts): the only way to read or write a shared document. A read
 * validates what the store returned (DocumentError when it is malformed or of another version, null
 * when absent); a write stores the body with its version and refuses a body its reader would refuse.
 * It lives beside the port so every layer that may use the port reads documents through it alone.
 */
import { decodeDocument, encodeDocument } from '../domain/documents/registry.js';
import type { DocumentKey, DocumentOf } from '../domain/documents/registry.js';
import type { KeyValueStore } from './key-value-store.js';

export async function readDocument<K extends DocumentKey>(
  kv: Pick<KeyValueStore, 'get'>,
  key: K,
): Promise<DocumentOf<K> | null> {
  return decodeDocument(key, await kv.get(key));
}

/** With `fence`, as KeyValueStore.set: written only while no newer fencing token exists. */
export async function writeDocument<K extends DocumentKey>(
  kv: Pick<KeyValueStore, 'set'>,
  key: K,
  body: DocumentOf<K>,
  fence?: number,
): Promise<void> {
  const stored = encodeDocument(key, body);
  await (fence === undefined ? kv.set(key, stored) : kv.set(key, stored, fence));
}
