/**
 * Pub/sub for the store: one subscriber connection, created only when someone first subscribes
 * (a Redis connection in subscribe mode cannot run other commands, so it must be separate from the
 * main one). Fans each message out to the listeners of its channel, and unsubscribes a channel
 * when its last listener leaves. ioredis re-subscribes by itself after a reconnect.
 */
import type { Redis } from 'ioredis';

type Handler = (message: string) => void;

interface Channel {
  handlers: Set<{ handler: Handler }>;
  /** Resolves once Redis confirmed the SUBSCRIBE, so a publish right after subscribe() is seen. */
  ready: Promise<unknown>;
}

export class Notifier {
  private subscriber: Redis | null = null;
  private readonly channels = new Map<string, Channel>();
  private closed = false;

  constructor(
    /** Makes the subscriber connection (with its own error listener). */
    private readonly connect: () => Redis,
    private readonly onError: (err: Error) => void,
  ) {}

  async subscribe(channelName: string, handler: Handler): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('the Redis store is closed');
    const subscriber = this.connection();
    let channel = this.channels.get(channelName);
    if (!channel) {
      channel = { handlers: new Set(), ready: subscriber.subscribe(channelName) };
      this.channels.set(channelName, channel);
    }
    // A wrapper per call, so the same function subscribed twice is two subscriptions.
    const entry = { handler };
    channel.handlers.add(entry);
    try {
      await channel.ready;
    } catch (err) {
      channel.handlers.delete(entry);
      if (channel.handlers.size === 0 && this.channels.get(channelName) === channel) this.channels.delete(channelName);
      throw err;
    }
    let active = true;
    return async () => {
      if (!active) return;
      active = false;
      const current = this.channels.get(channelName);
      if (!current?.handlers.delete(entry) || current.handlers.size > 0) return;
      this.channels.delete(channelName);
      if (!this.closed && this.subscriber) await this.subscriber.unsubscribe(channelName);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
    const subscriber = this.subscriber;
    this.subscriber = null;
    if (subscriber) await quitQuietly(subscriber);
  }

  private connection(): Redis {
    if (this.subscriber) return this.subscriber;
    const subscriber = this.connect();
    subscriber.on('message', (channelName: string, message: string) => this.deliver(channelName, message));
    this.subscriber = subscriber;
    return subscriber;
  }

  private deliver(channelName: string, message: string): void {
    const channel = this.channels.get(channelName);
    if (!channel) return;
    for (const { handler } of [...channel.handlers]) {
      // One faulty listener must not starve the others or crash the connection's event loop.
      try {
        handler(message);
      } catch (err) {
        this.onError(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }
}

/** QUIT, falling back to a hard disconnect when the connection is already unusable. */
export async function quitQuietly(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}
