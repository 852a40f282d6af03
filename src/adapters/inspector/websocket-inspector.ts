/**
 * The link from the actor system to a Stately inspector over WebSocket (`tcs trade --inspect`). The
 * package's own WebSocket adapter retries silently every 5 s forever, keeps only the newest 200
 * events (so the actor registrations are gone by the time an inspector comes up) and replays that
 * buffer again on every reconnect. This one says once that nothing answers and that trading goes on
 * without the inspector, retries quietly on a timer that never holds the process open, keeps the live
 * actors' registrations (bounded) so a late inspector still sees every actor, and checks every frame
 * for the secrets it was given before it leaves the process. Inspection is best effort: nothing here
 * throws into the actor system.
 */
import { createInspector } from '@statelyai/inspect';
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import type { InspectionEvent, Observer } from 'xstate';
import { WebSocket } from 'ws';
import { toSafeJson } from './safe-json.js';

export interface InspectorLinkOptions {
  url: string;
  /** Values that must never reach the inspector (RISK_HMAC_SECRET, SERVICE_API_KEY). */
  secrets: readonly string[];
  /** A warning for the operator (stderr). Each kind of trouble is said once, never per retry. */
  warn(message: string): void;
  /** Progress worth a log line (connected). */
  info(message: string): void;
  retryMs?: number;
}

export interface InspectorLink {
  /** Pass to `createActor(…, { inspect })`. */
  inspect: Observer<InspectionEvent>;
  stop(): Promise<void>;
}

/** Registrations kept for an inspector that connects later; the long-lived actors come first. */
const MAX_REGISTRATIONS = 1_000;
/** Events other than registrations kept while no inspector is connected (the newest win). */
const MAX_PENDING = 500;
/** A slow inspector gets nothing more beyond this many unsent bytes, rather than growing memory. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const TERMINAL = new Set(['done', 'error', 'stopped']);
/** How often a missing inspector is tried again, unless `retryMs` says otherwise. */
export const INSPECTOR_RETRY_MS = 5_000;

export function connectInspector(options: InspectorLinkOptions): InspectorLink {
  const retryMs = options.retryMs ?? INSPECTOR_RETRY_MS;
  const secrets = options.secrets.filter((s) => s.length >= 8);
  const registrations = new Map<string, string>(); // sessionId → frame
  let pending: string[] = [];
  let socket: WebSocket | undefined;
  let open = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let warnedAbsent = false;
  let warnedSecret = false;

  const frameOf = (event: StatelyInspectionEvent): string | undefined => {
    let text: string;
    try {
      text = toSafeJson(event);
    } catch {
      return undefined; // a snapshot that cannot be written is not worth a crash
    }
    for (const secret of secrets) {
      if (!text.includes(secret)) continue;
      text = text.split(secret).join('[redacted]');
      if (!warnedSecret) {
        warnedSecret = true;
        options.warn('an inspection event carried a secret; it was redacted before sending (a bug: please report it)');
      }
    }
    return text;
  };

  const send = (event: StatelyInspectionEvent) => {
    const frame = frameOf(event);
    if (frame === undefined) return;
    if (event.type === '@xstate.actor') {
      if (registrations.size < MAX_REGISTRATIONS) registrations.set(event.sessionId, frame);
    } else if (event.type === '@xstate.snapshot' && TERMINAL.has(String(event.snapshot.status))) {
      registrations.delete(event.sessionId); // a finished actor need not be shown to a later inspector
    }
    if (open && socket) {
      if (socket.bufferedAmount < MAX_BUFFERED_BYTES) socket.send(frame);
      return;
    }
    if (event.type === '@xstate.actor') return; // kept above, sent on connect
    pending.push(frame);
    if (pending.length > MAX_PENDING) pending = pending.slice(-MAX_PENDING);
  };

  const connect = () => {
    retry = undefined;
    if (stopped) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket(options.url);
    } catch (err) {
      options.warn(
        `cannot use the Stately inspector URL ${options.url} (${(err as Error).message}); trading goes on without the inspector`,
      );
      return;
    }
    socket = ws;
    ws.on('open', () => {
      open = true;
      warnedAbsent = false; // a later loss is news again
      options.info(`Stately inspector connected at ${options.url}`);
      for (const frame of registrations.values()) ws.send(frame);
      for (const frame of pending) ws.send(frame);
      pending = [];
    });
    ws.on('error', (err) => {
      if (warnedAbsent || stopped) return;
      warnedAbsent = true;
      options.warn(
        `${open ? 'lost the' : 'no'} Stately inspector at ${options.url} (${err.message}); trading goes on ` +
          `without the inspector (retrying quietly every ${retryMs / 1000} s)`,
      );
    });
    ws.on('close', () => {
      open = false;
      socket = undefined;
      if (stopped) return;
      retry = setTimeout(connect, retryMs);
      retry.unref(); // the inspector never keeps the trading process alive
    });
  };

  const inspector = createInspector({ send }, { autoStart: false });
  connect();

  return {
    inspect: inspector.inspect,
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const ws = socket;
      if (!ws || ws.readyState === WebSocket.CLOSED) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          ws.terminate();
          resolve();
        }, 1_000);
        ws.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        ws.close();
      });
    },
  };
}
