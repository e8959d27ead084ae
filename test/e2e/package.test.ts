/**
 * The package as npm packs it: `npm pack` in a tree without dist/ builds it (prepare), the
 * tarball holds what the runner and the CLI load (and a LICENSE), and the runtime
 * dependencies are exactly what dist/ requires from node_modules.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../support/run-hook';

const SOURCES = ['bin', 'cli', 'engine', 'scripts', 'third_party', 'policies', 'templates', 'docs', 'package.json', 'tsconfig.json', 'policy.schema.json', 'policy-test.schema.json', 'LICENSE', 'README.md'];

interface PackedFile { path: string }

describe('npm pack', () => {
  let files: string[] = [];
  let tree = '';

  beforeAll(() => {
    tree = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-pack-tree-'));
    for (const name of SOURCES) fs.cpSync(path.join(REPO_ROOT, name), path.join(tree, name), { recursive: true });
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
    expect(fs.existsSync(path.join(tree, 'dist'))).toBe(false);
    const out = execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: tree, encoding: 'utf8', env: { ...process.env, HOOKPOLICY_SKIP_TYPECHECK: '1', npm_config_loglevel: 'error' } });
    files = (JSON.parse(out) as Array<{ files: PackedFile[] }>)[0].files.map((f) => f.path);
  }, 120_000);

  afterAll(() => fs.rmSync(tree, { recursive: true, force: true }));

  it('builds dist/ when it is missing, and ships it with the bin, the packs, the schemas and a LICENSE', () => {
    for (const file of ['dist/hook.cjs', 'dist/compile.cjs', 'dist/cli.cjs', 'dist/shell.cjs', 'dist/packs-parsed.json', 'dist/secret-formats.json', 'dist/sandbox.cjs', 'dist/sandbox-inside.cjs', 'bin/policy.cjs', 'policies/security-guard.yaml', 'templates/policies.yaml', 'templates/policies.test.yaml', 'policy.schema.json', 'LICENSE', 'package.json']) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => /\.test\.ts$|^test\/|^engine\/|^cli\//.test(f))).toEqual([]);
  });

  it('ships, beside the bundles, the license and notices of every package whose code they carry', () => {
    expect(files).toContain('dist/THIRD-PARTY-NOTICES.txt');
    const notices = fs.readFileSync(path.join(tree, 'dist', 'THIRD-PARTY-NOTICES.txt'), 'utf8');
    const bundled = new Set<string>();
    for (const file of fs.readdirSync(path.join(tree, 'dist')).filter((f) => f.endsWith('.cjs'))) {
      // esbuild names each bundled file in a comment: `// node_modules/yaml/dist/...` (here
      // through the tree's symlink: the real path, relative to the tree).
      for (const m of fs.readFileSync(path.join(tree, 'dist', file), 'utf8').matchAll(/^\/\/ (?:\S*\/)?node_modules\/((?:@[^/]+\/)?[^/\s]+)\//gm)) bundled.add(m[1]);
    }
    expect([...bundled]).toEqual(expect.arrayContaining(['yaml', 'ajv', 'commander', 'better-sqlite3', '@opentelemetry/api']));
    for (const name of bundled) {
      const dir = path.join(REPO_ROOT, 'node_modules', name);
      const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
      expect(notices).toContain(`== ${name}@${version} (`);
      const license = fs.readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
      expect(license).toBeDefined();
      expect(notices).toContain(fs.readFileSync(path.join(dir, license as string), 'utf8').trim());
    }
  });

  it('lists as runtime dependencies (optional ones included) exactly the packages dist/ requires from node_modules', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>; optionalDependencies?: Record<string, string>; bin: Record<string, string>;
    };
    const required = new Set<string>();
    for (const file of fs.readdirSync(path.join(tree, 'dist'))) {
      const text = fs.readFileSync(path.join(tree, 'dist', file), 'utf8');
      // Real requires only: ajv's standalone code keeps `require("ajv/...")` inside strings it never runs here.
      for (const m of text.matchAll(/(?<![\w.'"`])require\("([^".][^"]*)"\)/g)) {
        const name = m[1].startsWith('@') ? m[1].split('/').slice(0, 2).join('/') : m[1].split('/')[0];
        if (!name.startsWith('node:') && !isBuiltin(name)) required.add(name);
      }
    }
    // better-sqlite3 is optional: a native module whose build may not run; the memory store says so and records all the same.
    expect([...required].sort()).toEqual([...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {})].sort());
    expect(pkg.bin).toEqual({ policy: 'bin/policy.cjs', hookpolicy: 'bin/policy.cjs' });
  });
});

function isBuiltin(name: string): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node:module') as { builtinModules: string[] }).builtinModules.includes(name);
}
