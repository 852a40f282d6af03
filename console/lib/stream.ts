/**
 * The live event stream, read with fetch and a stream reader so the key travels in the
 * Authorization header (EventSource would need it in the URL). Reconnects on its own with a
 * growing delay, sending the last event id as Last-Event-ID so the API replays what was missed;
 * stops for good on a 401 (the key was refused) or when its signal aborts.
 */
import { SseParser } from './sse.js';
import type { SseEvent } from './sse.js';

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'refused' | 'closed';

export interface StreamOptions {
  key: string;
  /** The stream's address; the page's own origin by default. */
  url?: string;
  signal: AbortSignal;
  onEvent(event: SseEvent): void;
  onStatus(status: StreamStatus): void;
}

const MIN_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Runs until aborted or refused. */
export async function runStream({
  key,
  url = '/control/events',
  signal,
  onEvent,
  onStatus,
}: StreamOptions): Promise<void> {
  let lastEventId = '';
  let delay = MIN_DELAY_MS;
  onStatus('connecting');
  while (!signal.aborted) {
    const parser = new SseParser(lastEventId);
    try {
      const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: 'text/event-stream' };
      if (lastEventId) headers['last-event-id'] = lastEventId;
      const res = await fetch(url, { headers, signal });
      if (res.status === 401) {
        onStatus('refused');
        return;
      }
      if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
      onStatus('live');
      delay = MIN_DELAY_MS;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of parser.push(value)) onEvent(event);
        lastEventId = parser.lastEventId;
      }
    } catch {
      // A dropped connection or an aborted fetch: reconnect below, or leave when aborted.
    }
    lastEventId = parser.lastEventId || lastEventId;
    if (signal.aborted) break;
    onStatus('reconnecting');
    await wait(parser.retryMs ?? delay, signal);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
  onStatus('closed');
}
