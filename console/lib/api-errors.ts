/**
 * What the console makes of a failed API call: the API's standard error body
 * `{statusCode, code, error, message}` (src/api/errors.ts) becomes an ApiError with that code and
 * message; a 401 always reads "That key was refused", whatever the body, because it means the key
 * itself. Pure, tested without a browser.
 */

export const REFUSED_KEY = 'That key was refused';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get unauthorized(): boolean {
    return this.status === 401;
  }
}

/** The API's error body `{statusCode, code, error, message}`, or what can be said without it. */
export function errorFromBody(status: number, body: unknown): ApiError {
  if (status === 401) return new ApiError(401, 'UNAUTHORIZED', REFUSED_KEY);
  if (typeof body === 'object' && body !== null) {
    const b = body as Record<string, unknown>;
    const code = typeof b.code === 'string' ? b.code : `HTTP_${status}`;
    const message = typeof b.message === 'string' ? b.message : `the API answered ${status}`;
    return new ApiError(status, code, message);
  }
  return new ApiError(status, `HTTP_${status}`, `the API answered ${status}`);
}
