/**
 * A Server-Sent Events client as a browser page would read the stream: node's fetch and a stream
 * reader (never EventSource, which cannot send the Authorization header). Parses frames as they
 * arrive; `waitFor` reads until a matching message arrives, bounded by a deadline.
 */
export interface SseMessage {
  id: string | undefined;
  event: string;
  data: unknown;
}

export interface SseStream {
  status: number;
  messages: SseMessage[];
  comments: number;
  /** Reads until `match` holds for a message received (now or later); rejects at the deadline or the end. */
  waitFor(match: (m: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage>;
  /** Reads until the server ends the stream (true) or the deadline passes (false). */
  waitForEnd(timeoutMs?: number): Promise<boolean>;
  cancel(): Promise<void>;
  /** The response, for a client that never reads. */
  response: Response;
}

export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers } });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ended = false;
  // A read that lost the race to a deadline stays pending; the next readOnce takes it up, so no chunk is lost.
  let inFlight: Promise<{ done: boolean; value?: Uint8Array | undefined }> | null = null;
  const stream: SseStream = {
    status: response.status,
    messages: [],
    comments: 0,
    response,
    async waitFor(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (let seen = 0; ;) {
        for (; seen < stream.messages.length; seen++) if (match(stream.messages[seen]!)) return stream.messages[seen]!;
        if (ended) throw new Error('the stream ended before the message arrived');
        if (!(await readOnce(deadline - Date.now()))) throw new Error('no such message before the deadline');
      }
    },
    async waitForEnd(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!ended) if (!(await readOnce(deadline - Date.now()))) return false;
      return true;
    },
    async cancel() {
      await reader.cancel().catch(() => undefined);
    },
  };

  /** One read; false when the deadline passed first. */
  async function readOnce(ms: number): Promise<boolean> {
    if (ms <= 0) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
    inFlight ??= reader.read().catch(() => ({ done: true as const, value: undefined }));
    const result = await Promise.race([inFlight, late]).finally(() => clearTimeout(timer));
    if (result === 'late') return false;
    inFlight = null;
    if (result.done) ended = true;
    else text += decoder.decode(result.value, { stream: true });
    parse();
    return true;
  }

  function parse(): void {
    for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      let id: string | undefined;
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) stream.comments++;
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data !== '') stream.messages.push({ id, event, data: JSON.parse(data) });
    }
  }

  return stream;
}
