/**
 * A type-level proof that a schema's Static type and a hand-written domain type are the same: a
 * `const x: Same<A, B> = true` fails to compile as soon as either side changes alone.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
