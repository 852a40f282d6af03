/**
 * What `tcs sweep --queue` and `tcs sweep-worker` agree on: the BullMQ queue's name, its key prefix
 * (`--prefix`, so sweeps of different teams or tests share a Redis without meeting), and the
 * connection. BullMQ's blocking commands need maxRetriesPerRequest null.
 */
import { ConfigError } from '../config.js';

export const QUEUE_NAME = 'trials';
export const DEFAULT_PREFIX = 'tcs-sweep';

export interface QueueSettings {
  url: string;
  prefix: string;
}

export function queueConnection(settings: QueueSettings) {
  return { url: settings.url, maxRetriesPerRequest: null };
}

export function checkQueueUrl(url: string | undefined): string {
  const trimmed = url?.trim() ?? '';
  if (!/^rediss?:\/\/[^/\s]+(\/\d+)?\/?$/.test(trimmed))
    throw new ConfigError(`--queue must be a Redis URL, e.g. redis://127.0.0.1:6379/0, got "${url ?? ''}"`);
  return trimmed;
}

export function checkPrefix(prefix: string | undefined): string {
  if (prefix === undefined) return DEFAULT_PREFIX;
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(prefix))
    throw new ConfigError(`--prefix must be 1–64 letters, digits, _ . or -, got "${prefix}"`);
  return prefix;
}
