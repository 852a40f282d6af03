/**
 * Every error code an answer of the API can carry (the `code` of the standard error body
 * `{statusCode, code, error, message}`), with its status and when it is given. The `TCS_*` codes are
 * this service's; the `FST_ERR_*` ones are Fastify's own, passed through unchanged. The source of
 * docs/reference/errors.md; a test fails when a `TCS_*` code in src is missing here, or listed here
 * but no longer used.
 */
export interface ErrorCodeEntry {
  /** The HTTP status, or null for a code that is never an HTTP answer. */
  status: number | null;
  when: string;
}

export const ERROR_CODE_CATALOG = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    when: 'Malformed JSON: the body could not be parsed, so it is not a validation error.',
  },
  TCS_BAD_CONTENT_LENGTH: {
    status: 400,
    when: 'A Content-Length that is not a number, repeated with another value, or more than was sent (the connection is closed).',
  },
  TCS_MALFORMED_REQUEST: {
    status: 400,
    when: 'A request Node’s HTTP parser cannot read (the connection is closed).',
  },
  TCS_BAD_REQUEST: { status: 400, when: 'Another client error Fastify raised without a code of its own.' },
  TCS_UNAUTHORIZED: {
    status: 401,
    when: 'Missing, malformed, non-Bearer or wrong token, or two `Authorization` headers; comes with `WWW-Authenticate: Bearer …`.',
  },
  TCS_NOT_FOUND: { status: 404, when: 'Unknown route.' },
  TCS_REQUEST_TIMEOUT: {
    status: 408,
    when: 'The request did not arrive in time (the connection is closed).',
  },
  TCS_STATE_CONFLICT: { status: 409, when: 'Pause or resume while killed.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, when: 'A body over 64 KiB.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, when: 'A body that is not `application/json`.' },
  FST_ERR_VALIDATION: {
    status: 422,
    when: 'A body or query that fails validation: a wrong type (never coerced), an unknown field (never stripped), `reduce_pct` outside (0, 1], an integer query parameter that is not decimal digits, `reason` empty or longer than 500 characters.',
  },
  TCS_UNKNOWN_SYMBOL: { status: 422, when: 'A symbol that is not configured (the message lists the allowed ones).' },
  TCS_RATE_LIMITED: {
    status: 429,
    when: 'Control POST rate limit (`CONTROL_RATE_LIMIT`) exceeded; the kill switch is exempt.',
  },
  TCS_HEADERS_TOO_LARGE: { status: 431, when: 'Headers over 16 KiB (the connection is closed).' },
  TCS_INTERNAL: { status: 500, when: 'Internal error; no details, no stack trace (those go to the log).' },
  TCS_STORE_UNAVAILABLE: {
    status: 503,
    when: 'The store is unreachable, gave no answer within `STORE_TIMEOUT_MS`, is read-only or locked. The message says the change was NOT recorded; retrying is safe.',
  },
  TCS_STORE_FAULT: {
    status: 503,
    when: 'The store answered, but is not the store it was (empty, replaced, rolled back). Nothing was recorded.',
  },
  TCS_CONTROL_CONTENDED: {
    status: 503,
    when: 'Other API processes kept changing the control record for 2 s (or a kill was being recorded); nothing was recorded, press again. Comes with `Retry-After: 1`.',
  },
  TCS_COMMAND_QUEUE_FULL: {
    status: 503,
    when: '`COMMAND_QUEUE_MAX` commands are already waiting for the trading process: the command was NOT queued (the kill switch is exempt). Comes with `Retry-After`.',
  },
  TCS_DOCUMENT_INVALID: {
    status: 503,
    when: 'A shared document in the store is malformed or of another version: a fault, never data.',
  },
  TCS_CONSOLE_NOT_BUILT: { status: 503, when: 'The operator console is not built: run `npm run build`.' },
  TCS_LATCH_UNWRITABLE: {
    status: null,
    when: 'Not an HTTP answer: the trading process cannot write its latch (`TRADING_LATCH_PATH`) and halts (`latch_unwritable`).',
  },
} as const satisfies Readonly<Record<string, ErrorCodeEntry>>;
