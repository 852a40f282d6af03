/**
 * One way out to the venue: every venue mutation (submit, cancel-all) is a job of the order manager,
 * carried out by one module, src/application/order-execution.ts. This test finds, with the type
 * checker (not by name), every call of a venue mutator in src/ and machines/ and fails on any outside
 * that module — a halt's, a breaker's or a kill's cancel made "just this once" straight at the venue
 * is exactly what a live venue makes dangerous. The venues themselves (src/adapters/paper-venue/)
 * implement the port and are not callers.
 */
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VENUE_PORT = resolve(ROOT, 'src/ports/venue.ts');
/** The port's methods that change something at the venue. */
const MUTATORS = new Set(['submit', 'cancelAll']);
const ALLOWED = new Set(['src/application/order-execution.ts']);
const IMPLEMENTERS = 'src/adapters/paper-venue/';

/** Calls of a Venue mutator, as `file:line method`, in the program's own source files. */
function venueMutatorCalls(): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    resolve(ROOT, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.build.json did not parse');
  const options = { ...config.options, noEmit: true, types: [] };
  // Our own files only: packages' typings (ccxt's alone are megabytes) are not needed to find our
  // Venue port, and skipping them makes this a couple of seconds cheaper. TypeScript's own lib stays.
  const host = ts.createCompilerHost(options);
  const ownOrLib = (path: string) => !path.includes('/node_modules/') || path.includes('/node_modules/typescript/lib/');
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (path) => ownOrLib(path) && fileExists(path);
  const program = ts.createProgram({ rootNames: config.fileNames, options, host });
  const checker = program.getTypeChecker();
  const isVenueMethod = (symbol: ts.Symbol | undefined) =>
    (symbol?.declarations ?? []).some(
      (d) => resolve(d.getSourceFile().fileName) === VENUE_PORT || isInVenueImplementation(d, checker),
    );
  const found: string[] = [];
  for (const file of program.getSourceFiles()) {
    const path = relative(ROOT, file.fileName);
    if (path.startsWith('node_modules') || path.startsWith('..')) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const name = node.expression.name.text;
        if (MUTATORS.has(name) && isVenueMethod(checker.getSymbolAtLocation(node.expression.name))) {
          const { line } = file.getLineAndCharacterOfPosition(node.getStart());
          found.push(`${path}:${line + 1} ${name}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/** A method declared in a class that implements the Venue port (a call through the concrete class). */
function isInVenueImplementation(declaration: ts.Declaration, checker: ts.TypeChecker): boolean {
  const owner = declaration.parent;
  if (!ts.isClassDeclaration(owner)) return false;
  return (owner.heritageClauses ?? []).some((clause) =>
    clause.types.some((t) => checker.getTypeAtLocation(t.expression).symbol?.name === 'Venue'),
  );
}

describe('one way out to the venue', () => {
  it("only the order manager's executor calls a venue mutator", () => {
    const calls = venueMutatorCalls();
    const callers = new Set(calls.map((c) => c.split(':')[0]!));
    // The scan sees the executor's own calls, so it is looking at the right thing.
    expect(calls.some((c) => c.startsWith('src/application/order-execution.ts:') && c.endsWith(' submit'))).toBe(true);
    expect(calls.some((c) => c.startsWith('src/application/order-execution.ts:') && c.endsWith(' cancelAll'))).toBe(
      true,
    );
    const outside = [...callers].filter((f) => !ALLOWED.has(f) && !f.startsWith(IMPLEMENTERS));
    expect(outside, calls.join('\n')).toEqual([]);
  }, 60_000);
});
