/**
 * Where the API key lives in the browser: sessionStorage, so it is gone when the tab closes and
 * never shared with other tabs or written to disk as a cookie would be; never in a URL.
 */
const KEY = 'tcs.apiKey';

export function loadKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function saveKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function clearKey(): void {
  sessionStorage.removeItem(KEY);
}
