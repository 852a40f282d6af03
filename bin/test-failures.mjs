#!/usr/bin/env node
// Prints the failed tests of a vitest JSON report (vitest.config.ts writes one under CI): each one's
// name and the first lines of its failure. `.ci/run` calls it when `npm test` fails, so the CI log
// always says what failed and why, even when the default reporter's summary of failures is missing
// from it (seen in fresh-clone runs, cause unknown).
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'test-artifacts/vitest.json';
if (!existsSync(file)) {
  console.error(`test-failures: no report at ${file}`);
  process.exit(0);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const failed = [];
for (const suite of report.testResults ?? []) {
  for (const test of suite.assertionResults ?? [])
    if (test.status === 'failed')
      failed.push({ file: suite.name, name: test.fullName, messages: test.failureMessages ?? [] });
  // A file that failed outside any test (an import error, a hook) has no failed assertion of its own.
  if (suite.status === 'failed' && !(suite.assertionResults ?? []).some((t) => t.status === 'failed'))
    failed.push({ file: suite.name, name: '(the file itself)', messages: [suite.message ?? ''] });
}
console.log(`\n::: ${failed.length} failed test(s), from ${file}`);
for (const f of failed) {
  console.log(`\n--- ${f.file}\n    ${f.name}`);
  for (const message of f.messages) console.log(message.split('\n').slice(0, 40).join('\n'));
}
