/**
 * `.env` handling: read it without overriding variables already set in the environment, and on a
 * first `npm start` write one with fresh random secrets (mode 0600). There is never a built-in key.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { generateKey } from '../domain/keys.js';

/** Variables from `path` merged under `env` (the real environment wins). */
export function readEnvFile(path: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!existsSync(path)) return env;
  const fromFile = parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
  return { ...fromFile, ...env };
}

/**
 * Writes a `.env` with fresh SERVICE_API_KEY and RISK_HMAC_SECRET when none exists.
 * Returns true when it wrote one. Refuses to overwrite (flag `wx`).
 */
export function writeFirstRunEnvFile(path: string): boolean {
  if (existsSync(path)) return false;
  const body = [
    '# Written by the first `npm start`. Keep this file private (mode 0600); see .env.example for every variable.',
    `SERVICE_API_KEY=${generateKey()}`,
    `RISK_HMAC_SECRET=${generateKey()}`,
    '',
  ].join('\n');
  writeFileSync(path, body, { mode: 0o600, flag: 'wx' });
  return true;
}
