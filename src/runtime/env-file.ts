/**
 * `.env` handling: read it without overriding variables already set in the environment, and on a
 * first `npm start` write one with fresh random secrets (mode 0600) for those the environment does
 * not provide. There is never a built-in key.
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

/** The secrets a first run may generate; nothing else is ever written. */
export const SECRETS = ['SERVICE_API_KEY', 'RISK_HMAC_SECRET', 'CONTROL_SECRET'] as const;

/**
 * On a first run (no `.env` yet), writes one holding a fresh key for each secret that `env` lacks,
 * and only those: a secret that comes from the environment must not get a second, unused value in a
 * file that claims to hold it. Returns the names written (none: no file). Refuses to overwrite (`wx`).
 */
export function writeFirstRunEnvFile(path: string, env: NodeJS.ProcessEnv): string[] {
  if (existsSync(path)) return [];
  // Set but blank still counts as set: the real environment wins over .env, so a key written here would be ignored.
  const missing = SECRETS.filter((name) => env[name] === undefined);
  if (missing.length === 0) return [];
  const body = [
    '# Written by the first `npm start`. Keep this file private (mode 0600); see .env.example for every variable.',
    ...missing.map((name) => `${name}=${generateKey()}`),
    '',
  ].join('\n');
  writeFileSync(path, body, { mode: 0o600, flag: 'wx' });
  return missing;
}
