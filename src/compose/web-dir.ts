import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where the dashboard's build is: dist/web of the package this code belongs to (found by walking up to its
 * package.json, as this file runs from src/compose under tsx and from dist/src/compose when built).
 */
export function dashboardBuildDir(from = import.meta.dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return join(dir, 'dist', 'web');
}
