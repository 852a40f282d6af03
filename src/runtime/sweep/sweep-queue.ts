/**
 * What `tcs sweep --queue` and `tcs sweep-worker` agree on: the BullMQ queue's name, its key prefix
 * (`--prefix`, so sweeps of different teams or tests share a Redis without meeting), and the
 * connection. BullMQ's blocking commands need maxRetriesPerRequest null.
 */
import { ConfigError } from '../config.js';
import { codeFingerprint } from './trial-basis.js';
import type { TrialJob } from './sweep-trials.js';

/** A trial as queued: with the fingerprint of its data and strategy modules (trial-basis.ts). */
export interface QueuedTrial extends TrialJob {
  basis: string;
}

/**
 * The queue of this program's trials: named after its code, so a sweep and a worker of different
 * code never meet (the sweep waits for workers of its own code, and says so).
 */
export function queueName(): string {
  return `trials-${codeFingerprint().slice(0, 16)}`;
}
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
