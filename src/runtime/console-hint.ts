/**
 * The line `tcs start` prints once the API listens: where the operator console is and which key
 * signs in to it, named by its variable and where that variable was read from. Never the key itself:
 * this line lands in terminals, logs and screenshots.
 */

/** Where SERVICE_API_KEY came from: the real environment wins over .env (environment.ts). */
export function apiKeySource(env: NodeJS.ProcessEnv, envFilePath: string): string {
  return env.SERVICE_API_KEY !== undefined ? 'the environment' : envFilePath;
}

/**
 * `address` is what the API reported (http://HOST:PORT, the real port when PORT=0). An API bound to
 * every interface is reached from this host at loopback, which is what a browser here should open.
 */
export function consoleHint(address: string, keySource: string, keyCount: number): string {
  const url = new URL(address);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  const which = keyCount > 1 ? `any one of the ${keyCount} comma-separated keys of SERVICE_API_KEY` : 'SERVICE_API_KEY';
  return `console: open ${url.origin}/ and sign in with the API key: ${which}, from ${keySource}`;
}
