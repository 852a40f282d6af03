/**
 * canonicalJson writes text directly; it must give exactly the bytes of the definition it replaced
 * (JSON.stringify of a recursively key-sorted copy without undefined fields, non-finite numbers
 * refused), for any value: every stored hash and every signed token depends on them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/domain/canonical-json.js';

/**
 * The previous implementation, kept as the definition, with one fix: its copy was a plain object, so
 * an own "__proto__" key was assigned as the copy's prototype and silently dropped. The copy here has
 * no prototype, so such a key is printed, as the new writer does. No stored entry or token can hold
 * one: request bodies are parsed with Fastify's prototype-poisoning protection, and our own keys are
 * names of fields.
 */
function definition(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v !== null && typeof v === 'object') {
      const out = Object.create(null) as Record<string, unknown>;
      for (const key of Object.keys(v).sort()) {
        const inner = (v as Record<string, unknown>)[key];
        if (inner !== undefined) out[key] = sortKeys(inner);
      }
      return out;
    }
    if (typeof v === 'number' && !Number.isFinite(v)) throw new TypeError(`canonical JSON cannot encode ${v}`);
    return v;
  };
  return JSON.stringify(sortKeys(value));
}

function outcome(f: () => string): { ok: string } | { error: string } {
  try {
    return { ok: f() };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe('canonicalJson', () => {
  it("gives the definition's bytes (or its error) for any value", () => {
    fc.assert(
      fc.property(
        fc.anything({
          withDate: true,
          withMap: true,
          withSet: true,
          withBoxedValues: true,
          withNullPrototype: true,
          withSparseArray: true,
          withTypedArray: true,
        }),
        (value) => {
          expect(outcome(() => canonicalJson(value))).toEqual(outcome(() => definition(value)));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('sorts keys at every depth, drops undefined fields, writes null for holes', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, undefined, () => 1], c: 'x' }, u: undefined })).toBe(
      '{"a":{"c":"x","d":[3,null,null]},"b":1}',
    );
    expect(canonicalJson(new Date(0))).toBe('{}');
    expect(canonicalJson(JSON.parse('{"__proto__":1}'))).toBe('{"__proto__":1}');
    // Array-index keys come first, in numeric order, as in any JavaScript object.
    expect(canonicalJson({ b: 1, 10: 2, 2: 3, a: 4 })).toBe('{"2":3,"10":2,"a":4,"b":1}');
    expect(canonicalJson(-0)).toBe('0');
    expect(() => canonicalJson({ x: [Number.NaN] })).toThrow(/cannot encode NaN/);
  });

  it('gives the same bytes for objects built in any key order, however many shapes share a first key', () => {
    // A writer that remembers key orders or quoted strings (it quotes keys through a bounded cache, and
    // a cache of key orders per shape was tried) must not mix shapes up: thousands of shapes and
    // strings, many sharing a first key, each seen again after others could have pushed it out.
    const keys = fc.uniqueArray(fc.oneof(fc.constantFrom('a', 'b', 'z', '10', '2', 'A', '_'), fc.string()), {
      minLength: 1,
      maxLength: 8,
    });
    fc.assert(
      fc.property(fc.array(keys, { minLength: 1, maxLength: 40 }), fc.string(), (shapes, text) => {
        for (const shape of shapes) {
          const forward = Object.fromEntries(shape.map((k, i) => [k, i % 2 === 0 ? text : { [k]: i }]));
          const backward = Object.fromEntries([...shape].reverse().map((k) => [k, forward[k]]));
          expect(canonicalJson(forward)).toBe(definition(forward));
          expect(canonicalJson(backward)).toBe(definition(forward));
        }
      }),
      { numRuns: 300 },
    );
    for (let i = 0; i < 5_000; i++) {
      const value = { first: i, [`k${i % 1_500}`]: `v${i}`, b: [i / 7, -0, 'é\u2028"\\'] };
      expect(canonicalJson(value)).toBe(definition(value));
    }
  });

  it('prints numbers and strings as JSON.stringify does', () => {
    const values = [
      -0,
      0,
      1e21,
      1e-7,
      5e-324,
      2 ** 53 + 2,
      -(2 ** 63),
      0.1 + 0.2,
      1.7976931348623157e308,
      123456789.12345679,
      '',
      'é',
      '\u2028\u2029',
      '\ud800',
      'a\udc00b',
      '😀',
      '\u0000\u001f\u007f',
      '"\\/',
      'BTCUSDT',
    ];
    for (const value of values) {
      expect(canonicalJson(value)).toBe(JSON.stringify(value));
      expect(canonicalJson({ x: [value, { y: value }] })).toBe(definition({ x: [value, { y: value }] }));
    }
  });
});
