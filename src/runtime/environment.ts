/** The effective environment of a process: the real environment over `.env` in the working directory. */
import { resolve } from 'node:path';
import { readEnvFile } from './env-file.js';

export const ENV_FILE = '.env';

export function loadEnv(cwd = process.cwd()): NodeJS.ProcessEnv {
  return readEnvFile(resolve(cwd, ENV_FILE), process.env);
}
