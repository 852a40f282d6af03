/**
 * Final touches on the generated OpenAPI document (the docs plugin's `transformObject`), for what
 * the route schemas cannot say themselves:
 *  - the route schemas are JSON Schema draft-07 for Ajv, where `exclusiveMinimum` is a number;
 *    OpenAPI 3.0.3 wants `minimum` plus a boolean `exclusiveMinimum`. Rewriting the generated
 *    document (never the route schema) keeps validation and description in step;
 *  - @fastify/swagger marks every request body required, but pause, resume and kill-switch take
 *    none at all (routes/control.ts): a route says so with `OPTIONAL_BODY` in its schema.
 */
declare module 'fastify' {
  interface FastifySchema {
    /** The body may be left out entirely; the document then says `requestBody.required: false`. */
    'x-tcs-optional-body'?: boolean;
  }
}

export const OPTIONAL_BODY = 'x-tcs-optional-body';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** Values that are data, not schema: an example may legitimately hold a field named exclusiveMinimum. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum']);

/** Draft-07's numeric exclusive bounds → OpenAPI 3.0's bound plus boolean flag, everywhere in the document. */
function downgradeExclusiveBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) downgradeExclusiveBounds(item);
    return;
  }
  if (!isObject(node)) return;
  convertBound(node, 'exclusiveMinimum', 'minimum', (a, b) => a >= b);
  convertBound(node, 'exclusiveMaximum', 'maximum', (a, b) => a <= b);
  for (const [key, value] of Object.entries(node)) if (!DATA_KEYS.has(key)) downgradeExclusiveBounds(value);
}

/**
 * `x > e` together with an inclusive `x ≥ m` (draft-07 allows both at once): whichever bound is
 * tighter wins. `tighter(e, m)` says whether the exclusive bound `e` is at least as tight as `m`.
 */
function convertBound(
  schema: Json,
  exclusiveKey: 'exclusiveMinimum' | 'exclusiveMaximum',
  inclusiveKey: 'minimum' | 'maximum',
  tighter: (exclusive: number, inclusive: number) => boolean,
): void {
  const exclusive = schema[exclusiveKey];
  if (typeof exclusive !== 'number') return;
  const inclusive = schema[inclusiveKey];
  if (typeof inclusive === 'number' && !tighter(exclusive, inclusive)) {
    delete schema[exclusiveKey];
    return;
  }
  schema[inclusiveKey] = exclusive;
  schema[exclusiveKey] = true;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Operations marked with OPTIONAL_BODY get `requestBody.required: false`; the marker leaves the document. */
function markOptionalBodies(paths: unknown): void {
  if (!isObject(paths)) return;
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation) || !(OPTIONAL_BODY in operation)) continue;
      if (operation[OPTIONAL_BODY] === true && isObject(operation.requestBody)) operation.requestBody.required = false;
      delete operation[OPTIONAL_BODY];
    }
  }
}

/** The generated document made valid OpenAPI 3.0.3 and true to the routes (changed in place and returned). */
export function finishOpenApiDocument<T extends { paths?: unknown }>(document: T): T {
  markOptionalBodies(document.paths);
  downgradeExclusiveBounds(document);
  return document;
}
