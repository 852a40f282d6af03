/**
 * API keys and secrets: URL-safe random strings from 32 random bytes, and their loggable ids (shared
 * by the API, which logs key ids, and the CLI, which generates keys).
 */
import { createHash, randomBytes } from 'node:crypto';

export function generateKey(): string {
  return randomBytes(32).toString('base64url');
}

/** A short, stable, non-reversible id for a key, safe for logs and the audit trail. */
export function keyId(key: string): string {
  return `key_${createHash('sha256').update(key).digest('hex').slice(0, 10)}`;
}
