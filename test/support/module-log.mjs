// Test instrument, loaded with `node --import` (through NODE_OPTIONS, so the supervisor's children
// inherit it): appends "<pid> <url>" to $TCS_MODULE_LOG for every ES module URL the process resolves,
// and "<pid> exit sourceMaps=<bool>" when it exits. Tests read it to prove which code a `tcs`
// process really ran (compiled dist/ or TypeScript sources) and whether tsx was ever loaded.
// The same file is both the --import preload (main thread) and the resolve hook (hooks thread).
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { register } from 'node:module';

const file = process.env.TCS_MODULE_LOG;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (file) appendFileSync(file, `${process.pid} ${resolved.url}\n`);
  return resolved;
}

if (isMainThread && file) {
  register(import.meta.url);
  process.on('exit', () => appendFileSync(file, `${process.pid} exit sourceMaps=${process.sourceMapsEnabled}\n`));
}
