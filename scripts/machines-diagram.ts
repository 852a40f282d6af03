/**
 * Writes docs/develop/machines.md (see scripts/machines-doc.ts). Run with `npm run machines:diagram` after
 * changing a machine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MACHINES, machinesMarkdown } from './machines-doc.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(root, 'docs/develop/machines.md');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, machinesMarkdown());
console.log(`wrote ${relative(process.cwd(), out) || out} (${MACHINES.length} machines)`);
