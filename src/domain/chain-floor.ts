/**
 * Where a trimmed hot store's chain resumes: the last entry archived and deleted (seq 0 and the
 * genesis hash when nothing was trimmed). Entries after it must link to its hash. A file of its own,
 * with no imports, so the ports (read by the console's type check, which has no Node types) can name
 * it without pulling in the hashing of chain-walk.ts.
 */
export interface ChainFloor {
  seq: number;
  hash: string;
}
