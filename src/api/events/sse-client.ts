/**
 * One stream client: a hijacked HTTP response written as Server-Sent Events. Its buffer is bounded:
 * writes never wait for the client, and when what Node holds unsent for it (`writableLength`) passes
 * `maxBufferedBytes`, or more than `maxPending` live messages wait behind its replay, the connection
 * is closed. A client that does not read therefore costs at most its bound and never slows the hub,
 * the API or the other clients; it reconnects with Last-Event-ID and gets what it missed.
 */
import type { ServerResponse } from 'node:http';
import type { EventStore } from '../../ports/event-store.js';
import type { HubClient } from './event-hub.js';
import type { StreamMessage, StreamPosition } from './stream-events.js';
import { KEEP_ALIVE_FRAME, auditMessages, frame, isAfter } from './stream-events.js';

export interface SseLimits {
  /** Unsent bytes held for one client before it is dropped. */
  maxBufferedBytes: number;
  /** Live messages held for one client while its replay runs before it is dropped. */
  maxPending: number;
}

export const DEFAULT_SSE_LIMITS: SseLimits = { maxBufferedBytes: 1024 * 1024, maxPending: 10_000 };

/** Audit entries read per query during a replay. */
const REPLAY_PAGE = 500;

export class SseClient implements HubClient {
  private pending: StreamMessage[] | null = [];
  private closed = false;

  constructor(
    private readonly raw: ServerResponse,
    /** The last audit position this client has been sent. */
    private position: StreamPosition,
    private readonly limits: SseLimits,
    private readonly onDrop: (reason: string) => void,
  ) {
    raw.on('close', () => (this.closed = true));
  }

  get ended(): boolean {
    return this.closed;
  }

  deliver(message: StreamMessage): void {
    if (this.closed) return;
    if (this.pending !== null) {
      this.pending.push(message);
      if (this.pending.length > this.limits.maxPending) this.drop(`more than ${this.limits.maxPending} events behind`);
      return;
    }
    this.send(message);
  }

  keepAlive(): void {
    if (!this.closed) this.write(KEEP_ALIVE_FRAME);
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.raw.end();
  }

  /** Sends a message that is not in the audit trail, stamped with the client's position. */
  send(message: StreamMessage): void {
    if (this.closed) return;
    if (message.position !== null) {
      if (!isAfter(message.position, this.position)) return; // already sent (replay met live)
      this.position = message.position;
    }
    this.write(frame(message, this.position));
  }

  /**
   * Sends the audit entries after the client's position, oldest first, waiting for the socket to
   * drain between pages (a replay is this client's own work), then what arrived live meanwhile.
   */
  async replay(events: EventStore): Promise<void> {
    let next = this.position.sub > 0 ? this.position.seq : this.position.seq + 1;
    while (!this.closed) {
      const page = await events.query({ before: next + REPLAY_PAGE, limit: REPLAY_PAGE });
      const entries = page.filter((e) => e.seq >= next).sort((a, b) => a.seq - b.seq);
      for (const entry of entries) for (const message of auditMessages(entry)) this.send(message);
      if (entries.length < REPLAY_PAGE) break; // older entries filled the page: the end is reached
      next += REPLAY_PAGE;
      await this.drained();
    }
    this.goLive();
  }

  /** Ends the replay phase: what the hub delivered meanwhile goes out, duplicates skipped. */
  goLive(): void {
    const waiting = this.pending ?? [];
    this.pending = null;
    for (const message of waiting) this.send(message);
  }

  private write(text: string): void {
    this.raw.write(text);
    if (this.raw.writableLength > this.limits.maxBufferedBytes)
      this.drop(`more than ${this.limits.maxBufferedBytes} bytes unread`);
  }

  private drained(): Promise<void> {
    if (this.closed || this.raw.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.raw.off('drain', done);
        this.raw.off('close', done);
        resolve();
      };
      this.raw.on('drain', done);
      this.raw.on('close', done);
    });
  }

  private drop(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.onDrop(reason);
    this.raw.destroy();
  }
}
