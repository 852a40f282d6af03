/**
 * A Server-Sent Events parser for a byte stream read with fetch (the console cannot use
 * EventSource: it would need the key in the URL, and EventSource sends no Authorization header).
 * Follows the HTML standard's event-stream interpretation: lines end in CRLF, LF or CR (a CR at the
 * end of one chunk and an LF at the start of the next are one line end); `:` lines are comments;
 * `data` lines join with "\n"; an `id` (without NUL) sets the last event id, which persists across
 * events and is what a reconnect sends as Last-Event-ID; a blank line dispatches; an event with no
 * data is not dispatched. Pure: no DOM, no I/O, so it is tested without a browser.
 */

export interface SseEvent {
  /** `message` when the stream named none. */
  event: string;
  data: string;
  /** The last event id in force when this event was dispatched ('' before any). */
  id: string;
}

export class SseParser {
  /** Text after the last complete line. */
  private pending = '';
  /** The previous chunk ended in CR: an LF opening the next chunk belongs to that line end. */
  private lastWasCr = false;
  private data: string[] = [];
  private eventType = '';
  private idBuffer = '';
  /** The id a reconnect sends; survives events, changed only by an `id` field. */
  lastEventId = '';
  /** Reconnection delay the server asked for (ms), null until it says. */
  retryMs: number | null = null;

  constructor(initialLastEventId = '') {
    this.lastEventId = initialLastEventId;
    this.idBuffer = initialLastEventId;
  }

  /** Feeds decoded text; returns the events completed by it, in order. */
  push(chunk: string): SseEvent[] {
    let text = chunk;
    if (this.lastWasCr && text.startsWith('\n')) text = text.slice(1);
    this.lastWasCr = text.endsWith('\r');
    const lines = (this.pending + text).split(/\r\n|\r|\n/);
    this.pending = lines.pop() ?? '';
    const out: SseEvent[] = [];
    for (const line of lines) {
      const event = this.line(line);
      if (event) out.push(event);
    }
    return out;
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.idBuffer = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        // Unknown fields are ignored, as the standard says.
        break;
    }
    return null;
  }

  private dispatch(): SseEvent | null {
    this.lastEventId = this.idBuffer;
    const data = this.data;
    const type = this.eventType;
    this.data = [];
    this.eventType = '';
    if (data.length === 0) return null;
    return { event: type || 'message', data: data.join('\n'), id: this.lastEventId };
  }
}
