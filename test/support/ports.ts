/**
 * Loopback ports for fault tests: one held by a real listener of the test's own (a port in use), and
 * one that was free a moment ago and has no listener (a store that refuses connections).
 */
import { createServer } from 'node:net';
import type { Server } from 'node:net';

/** A real TCP listener on 127.0.0.1; close it in cleanup. */
export async function takePort(): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return { port: (server.address() as { port: number }).port, server };
}

/** A port nothing listens on (it was bound and released just now). */
export async function closedPort(): Promise<number> {
  const { port, server } = await takePort();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
