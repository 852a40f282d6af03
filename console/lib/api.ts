/**
 * Calls to the API from the console. The key goes only in the Authorization header, never in a URL
 * or a log line. Failures become an ApiError carrying the API's standard error body (code and
 * message, src/api/errors.ts) so the page can show what the API said; a 401 is told apart because
 * it means the key itself was refused (api-errors.ts).
 */
import { ApiError, errorFromBody } from './api-errors.js';

export type Query = Record<string, string | number | undefined>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export class Api {
  constructor(private readonly key: string) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.key}`, ...extra };
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>('GET', withQuery(path, query));
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(path, {
        method,
        headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(0, 'NETWORK', 'the API could not be reached');
    }
    const parsed: unknown = await res.json().catch(() => null);
    if (!res.ok) throw errorFromBody(res.status, parsed);
    return parsed as T;
  }
}
