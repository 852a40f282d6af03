/** `tcs keygen`: prints a fresh key (the CLI reaches the domain only through runtime/). */
import { generateKey } from '../domain/keys.js';

export function printNewKey(): number {
  console.log(generateKey());
  return 0;
}
