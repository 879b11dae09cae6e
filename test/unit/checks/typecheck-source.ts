/**
 * Type-checks generated test files with the TypeScript compiler API, in memory. The files are placed (virtually) in
 * this folder, so `@playwright/test` and `@types/node` resolve from the repository's node_modules as they would in
 * a project that has them installed.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const HERE = dirname(fileURLToPath(import.meta.url));

/** A Playwright project in this repository's style: ESM, NodeNext, strict and then some, no DOM library. */
export const STRICT_ESM_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts'],
  types: ['node'],
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noUncheckedIndexedAccess: true,
  noImplicitReturns: true,
  exactOptionalPropertyTypes: true,
  isolatedModules: true,
  skipLibCheck: true,
};

/** A plain `npm init playwright` project: CommonJS, the default libraries (DOM included), strict. */
export const PLAIN_CJS_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  strict: true,
  esModuleInterop: true,
  skipLibCheck: true,
};

/**
 * The library declarations (lib.*.d.ts, @types/node, @playwright/test) parsed once per test file and option set:
 * parsing them was most of each check's second or so of CPU, and they never change within a run.
 */
const parsedLibraries = new Map<string, ts.SourceFile | undefined>();

/** Every diagnostic (syntax and types) of `files` (name → source), formatted; empty when they compile. */
export function typeErrors(files: Readonly<Record<string, string>>, options: ts.CompilerOptions): string[] {
  const virtual = new Map(Object.entries(files).map(([name, text]) => [join(HERE, name), text]));
  const compilerOptions = { ...options, noEmit: true };
  const host = ts.createCompilerHost(compilerOptions, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const text = virtual.get(fileName);
    if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true);
    const key = `${JSON.stringify(languageVersion)}:${fileName}`;
    if (!parsedLibraries.has(key)) parsedLibraries.set(key, getSourceFile.call(host, fileName, languageVersion, ...rest));
    return parsedLibraries.get(key);
  };
  host.fileExists = (fileName) => virtual.has(fileName) || fileExists.call(host, fileName);
  host.readFile = (fileName) => virtual.get(fileName) ?? readFile.call(host, fileName);
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options: compilerOptions, host });
  const formatHost: ts.FormatDiagnosticsHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => HERE, getNewLine: () => '\n' };
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.formatDiagnostic(diagnostic, formatHost).trim());
}
