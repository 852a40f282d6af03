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
    return this.request<T>('GET', withQuery(path, query)).then((r) => r.body);
  }

  /** A page of /reports/decisions with its X-Audit-Archive header (null when the API sends none). */
  async getPage<T>(path: string, query?: Query): Promise<{ body: T; archive: string | null }> {
    const { body, headers } = await this.request<T>('GET', withQuery(path, query));
    return { body, archive: headers.get('x-audit-archive') };
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body).then((r) => r.body);
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<{ body: T; headers: Headers }> {
    // Built apart from the call: `cache` is the browser's (Node's RequestInit, which the tests type
    // this file with, lacks it and Node ignores it).
    const init = {
      method,
      headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      cache: 'no-store' as const,
    };
    let res: Response;
    try {
      res = await fetch(path, init);
    } catch {
      throw new ApiError(0, 'NETWORK', 'the API could not be reached');
    }
    const parsed: unknown = await res.json().catch(() => null);
    if (!res.ok) throw errorFromBody(res.status, parsed);
    return { body: parsed as T, headers: res.headers };
  }
}
