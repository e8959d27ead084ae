import * as fs from 'fs';
import { builtinModules } from 'module';
import * as path from 'path';
import { RUNTIME_PACKAGES, RUNTIME_ROOTS } from './runtime-packages';

const ROOT = path.join(__dirname, '..');
const NODE_BUILTINS = new Set(builtinModules);

/** The dependency closure of `roots` as installed in node_modules (optional dependencies included, when installed). */
function closure(roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const walk = (name: string) => {
    const manifest = path.join(ROOT, 'node_modules', name, 'package.json');
    if (seen.has(name) || !fs.existsSync(manifest)) return;
    seen.add(name);
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { dependencies?: object; optionalDependencies?: object };
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) walk(dep);
  };
  roots.forEach(walk);
  return [...seen].sort();
}

it('RUNTIME_PACKAGES is the installed closure of RUNTIME_ROOTS', () => {
  expect(closure(RUNTIME_ROOTS)).toEqual([...RUNTIME_PACKAGES]);
});

it('RUNTIME_ROOTS names every package a bundle in dist/ requires by name', () => {
  const required = new Set<string>();
  for (const file of fs.readdirSync(path.join(ROOT, 'dist')).filter((f) => f.endsWith('.cjs'))) {
    // The bundles that run in the guard: the CLI's own (commander, yaml...) are bundled in, not required.
    for (const m of fs.readFileSync(path.join(ROOT, 'dist', file), 'utf8').matchAll(/require\("([^".][^"]*)"\)/g)) {
      const name = m[1].startsWith('@') ? m[1].split('/').slice(0, 2).join('/') : m[1].split('/')[0];
      if (!NODE_BUILTINS.has(name) && !name.startsWith('node:')) required.add(name);
    }
  }
  expect([...required].sort()).toEqual([...RUNTIME_ROOTS].sort());
});
