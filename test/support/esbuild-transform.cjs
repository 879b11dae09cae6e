'use strict';
/**
 * Jest's TypeScript transform: esbuild strips the types of one file at a time, as `tsx` does for the benchmarks and
 * the development commands. It does what ts-jest did under `isolatedModules` (one file, no type information) about a
 * hundred times faster: a fresh clone transformed the suite's ~700 files in about 200 s of CPU with ts-jest, a cost
 * every CI run paid. Type errors are `npm run typecheck`'s job, as before.
 *
 * esbuild emits no decorator metadata (`emitDecoratorMetadata`): every TypeORM column names its type (STACK.md), so
 * nothing reads it. The settings that change emitted code are taken from tsconfig.json, so the two cannot differ.
 */
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const esbuild = require('esbuild');

const { compilerOptions } = JSON.parse(readFileSync(require.resolve('../../tsconfig.json'), 'utf8'));
// Only the options that change what esbuild emits for one file.
const tsconfigRaw = {
  compilerOptions: {
    experimentalDecorators: compilerOptions.experimentalDecorators,
    useDefineForClassFields: compilerOptions.useDefineForClassFields,
    verbatimModuleSyntax: compilerOptions.verbatimModuleSyntax,
  },
};
const target = String(compilerOptions.target ?? 'ES2022').toLowerCase();
const configKey = createHash('sha256')
  .update(JSON.stringify({ esbuild: esbuild.version, tsconfigRaw, target, self: readFileSync(module.filename, 'utf8') }))
  .digest('hex');

/** @type {import('@jest/transform').SyncTransformer} */
module.exports = {
  canInstrument: false,
  getCacheKey(source, filename, options) {
    return createHash('sha256')
      .update(configKey)
      .update('\0')
      .update(filename)
      .update('\0')
      .update(options.supportsStaticESM ? 'esm' : 'cjs')
      .update('\0')
      .update(source)
      .digest('hex');
  },
  process(source, filename, options) {
    const { code, map } = esbuild.transformSync(source, {
      loader: filename.endsWith('.tsx') ? 'tsx' : 'ts',
      format: options.supportsStaticESM ? 'esm' : 'cjs',
      target,
      sourcefile: filename,
      sourcemap: 'external',
      tsconfigRaw,
    });
    return { code, map };
  },
};
