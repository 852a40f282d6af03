/**
 * chainHashOfCanonical (the stores' fast path: the body is already canonical text) gives exactly
 * chainHash's hash for any entry, so what verify() re-derives from the stored rows still matches.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/domain/canonical-json.js';
import { chainHash, chainHashOfCanonical, GENESIS_HASH } from '../../src/domain/hash-chain.js';

const json = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<unknown>;

describe('chainHashOfCanonical', () => {
  it('equals chainHash for any entry', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 2 ** 40 }),
        fc.string(),
        fc.string({ minLength: 1 }),
        fc.option(fc.string(), { nil: null }),
        fc.dictionary(fc.string(), json),
        (seq, at, kind, symbol, raw) => {
          const text = canonicalJson(raw);
          const body = JSON.parse(text) as Record<string, unknown>;
          expect(chainHashOfCanonical(GENESIS_HASH, { seq, at, kind, symbol }, text)).toBe(
            chainHash(GENESIS_HASH, { seq, at, kind, symbol, body }),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
