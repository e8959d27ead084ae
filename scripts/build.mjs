// Builds the bundles bin/policy.cjs loads:
//   dist/hook.cjs           the hot path (no commander, yaml or ajv; jsonata stays external)
//   dist/compile.cjs        load + validate + compile, required lazily on a cache miss
//   dist/cli.cjs            the commander CLI
//   dist/ensure.cjs         `policy serve --ensure`, the http install's hook at each prompt, without the CLI
//   dist/webhook-sender.cjs the detached child that POSTs decision records
//   dist/otlp-exporter.cjs  the detached child that exports decisions to OpenTelemetry
//   dist/summarizer.cjs     the detached memory process: prose summaries, embeddings
//   dist/pg-shipper.cjs     the detached process that ships records to the team's PostgreSQL
//   dist/sandbox.cjs        runs a Bash command of `unparsable: sandbox` in the sandbox, and judges what it wrote
//   dist/sandbox-inside.cjs its part inside the namespaces: the overlay, the command, the list of changes
//   dist/secret-formats.json  the secret formats derived from gitleaks' rules (scripts/secret-formats.mjs)
//   dist/THIRD-PARTY-NOTICES.txt  the licenses of the packages whose code the bundles carry, and of the data derived
// Type errors fail the build first (HOOKPOLICY_SKIP_TYPECHECK=1 skips the check).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { deriveSecretFormats } from './secret-formats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
/** require() from the project, for what the build itself reads of its dependencies. */
const requireHere = createRequire(join(root, 'package.json'));

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** A hash of every engine and CLI source and the schema: the build id that keys policy caches. */
function buildId() {
  const hash = createHash('sha256');
  for (const file of [...sourceFiles(join(root, 'engine')), ...sourceFiles(join(root, 'cli'))].sort()) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  for (const file of ['package.json', 'policy.schema.json']) {
    try {
      hash.update(readFileSync(join(root, file)));
    } catch {
      // Not there (yet): nothing to key on.
    }
  }
  return hash.digest('hex').slice(0, 12);
}

if (process.env.HOOKPOLICY_SKIP_TYPECHECK !== '1') {
  try {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', root], { stdio: 'inherit' });
  } catch {
    console.error('build: type errors (set HOOKPOLICY_SKIP_TYPECHECK=1 to bundle anyway)');
    process.exit(1);
  }
}

/**
 * Code the runner loads only when an event needs it, as a file of its own beside the
 * bundles: the lazy `require(request)` in `importer` becomes `require(chunk)`, and `chunk`
 * is built from `entry` (a list: every export of each file).
 */
const MEMORY_CHUNK = ['engine/evaluate/memory-lets.ts', 'engine/host/memory/memory-index.ts'];
const LAZY_CHUNKS = [
  { request: './shell/writes', importer: 'scope.ts', chunk: 'shell.cjs', entry: 'engine/evaluate/shell/writes.ts' },
  { request: './regex-safety', importer: 'regex.ts', chunk: 'regex-safety.cjs', entry: 'engine/evaluate/regex-safety.ts' },
  { request: './linear-match', importer: 'regex.ts', chunk: 'linear-match.cjs', entry: 'engine/evaluate/linear-match.ts' },
  // A rule's memory lets and the store's reader they ask: one chunk, since an event that
  // loads either loads both (each module loaded costs a read, a code cache and a wrapper).
  { request: './memory-index', importer: 'lazy-facts.ts', chunk: 'memory.cjs', entry: MEMORY_CHUNK },
  { request: './memory-lets', importer: 'rule.ts', chunk: 'memory.cjs', entry: MEMORY_CHUNK },
  // pg and the team database's code: only `policy db` and `policy memory search` with a database load them.
  { request: '../engine/host/postgres/commands', importer: 'postgres-access.ts', chunk: 'postgres.cjs', entry: 'engine/host/postgres/commands.ts' },
  { request: '../embeddings/hybrid-search', importer: 'lazy-facts.ts', chunk: 'embeddings.cjs', entry: 'engine/host/embeddings/hybrid-search.ts' },
  // A host adapter (engine/hosts/), loaded only under `policy hook --host NAME`: Claude Code's events never read one.
  { request: '../engine/hosts/codex/adapter', importer: 'hook.ts', chunk: 'host-codex.cjs', entry: 'engine/hosts/codex/adapter.ts' },
  { request: '../engine/hosts/gemini/adapter', importer: 'hook.ts', chunk: 'host-gemini.cjs', entry: 'engine/hosts/gemini/adapter.ts' },
  { request: '../engine/hosts/identity', importer: 'hook.ts', chunk: 'host-identity.cjs', entry: 'engine/hosts/identity.ts' },
  { request: '../engine/hosts/merge', importer: 'hook.ts', chunk: 'host-merge.cjs', entry: 'engine/hosts/merge.ts' },
];

/** Leaves `require('./compile.cjs')` as written, and points each lazy chunk's require at its file. */
const compileBesideTheBundle = {
  name: 'compile-beside-the-bundle',
  setup(b) {
    b.onResolve({ filter: /^\.\/compile\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    b.onResolve({ filter: /^\./ }, (args) => {
      const lazy = LAZY_CHUNKS.find((c) => c.request === args.path && args.kind === 'require-call' && args.importer.endsWith(c.importer));
      return lazy ? { path: `./${lazy.chunk}`, external: true } : undefined;
    });
  },
};

/**
 * engine/validate/schema-validator.ts compiles policy.schema.json with ajv at run time
 * (~100 ms of a cache miss, with ajv's own loading). In the bundles it is replaced by
 * ajv's standalone code for the same schema and options, generated here: the same
 * validator, with no ajv to load and nothing to compile.
 */
function standaloneSchemaModule() {
  const Ajv = requireHere('ajv').default;
  const standalone = requireHere('ajv/dist/standalone').default;
  const schema = JSON.parse(readFileSync(join(root, 'policy.schema.json'), 'utf8'));
  // The options of schema-validator.ts, read from it so the two cannot drift apart.
  const source = readFileSync(join(root, 'engine', 'validate', 'schema-validator.ts'), 'utf8');
  const options = /POLICY_SCHEMA_OPTIONS = (\{[^}]*\}) as const/.exec(source);
  if (!options) throw new Error('build: POLICY_SCHEMA_OPTIONS not found in engine/validate/schema-validator.ts');
  const ajv = new Ajv({ ...new Function(`return (${options[1]})`)(), code: { source: true } });
  const code = standalone(ajv, ajv.compile(schema));
  return [
    'const validate = (() => { const module = { exports: {} }; const exports = module.exports;',
    code,
    'return module.exports; })();',
    'exports.POLICY_SCHEMA_OPTIONS = ' + options[1] + ';',
    'exports.compilePolicySchema = () => validate;',
  ].join('\n');
}

const standaloneSchema = {
  name: 'standalone-policy-schema',
  setup(b) {
    let contents = null;
    b.onLoad({ filter: /[\\/]engine[\\/]validate[\\/]schema-validator\.ts$/ }, () => {
      contents ??= standaloneSchemaModule();
      return { contents, loader: 'js', resolveDir: root };
    });
  },
};

/**
 * better-sqlite3's JavaScript, bundled where engine/host/memory/sqlite.ts asks for
 * `better-sqlite3/lib/database` (its addon stays in node_modules): one module to load
 * instead of thirteen, each with its own read, code cache and wrapper (an event that reads
 * the memory store: ~2.5 ms and ~5 MB of peak memory less, docs/performance.md). Its
 * `require('bindings')` only searches for the addon when it is not given one, and sqlite.ts
 * always gives it: bundled as a module that says so. Without better-sqlite3 installed here,
 * the request stays as written (and sqlite.ts loads the package itself).
 */
const bundledSqlite = (() => {
  try {
    return { database: requireHere.resolve('better-sqlite3/lib/database'), version: requireHere('better-sqlite3/package.json').version };
  } catch {
    return null;
  }
})();
const bundledSqliteJs = {
  name: 'bundled-better-sqlite3-js',
  setup(b) {
    if (!bundledSqlite) return;
    b.onResolve({ filter: /^better-sqlite3\/lib\/database$/ }, () => ({ path: bundledSqlite.database }));
    b.onResolve({ filter: /^bindings$/ }, (args) => (/[\\/]better-sqlite3[\\/]lib[\\/]/.test(args.importer) ? { path: 'bindings', namespace: 'addon-given' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'addon-given' }, () => ({
      contents: "module.exports = () => { throw new Error('the bundled better-sqlite3 is given its addon (nativeBinding)'); };",
      loader: 'js',
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  legalComments: 'none',
  define: { HOOKPOLICY_BUILD_ID: JSON.stringify(buildId()), ...(bundledSqlite ? { BUNDLED_BETTER_SQLITE3: JSON.stringify(bundledSqlite.version) } : {}) },
  // jsonata (expressions), mvdan-sh (the shell parser) and picomatch (file globs a
  // `require` or `let` walks) load from node_modules only when a rule needs them; bundled,
  // every event would read them (picomatch alone is a third of the runner).
  // better-sqlite3 (the memory store's index) is a native module: its addon cannot be
  // bundled, and only a reader of the store loads it (its JavaScript: bundledSqliteJs).
  // pg (the team database's client) is loaded only by the shipper and `policy db`/`memory search`.
  external: ['jsonata', 'mvdan-sh', 'picomatch', 'better-sqlite3', 'pg'],
  // Which files went into each bundle: the third-party notices are made from it.
  metafile: true,
  plugins: [compileBesideTheBundle, standaloneSchema, bundledSqliteJs],
};

const bundles = {
  'hook.cjs': 'cli/hook-main.ts',
  'compile.cjs': 'engine/host/compile-entry.ts',
  'cli.cjs': 'cli/main.ts',
  'webhook-sender.cjs': 'engine/host/webhook-sender.ts',
  'otlp-exporter.cjs': 'engine/host/otlp/exporter-main.ts',
  'summarizer.cjs': 'engine/host/summarizer/main.ts',
  'pg-shipper.cjs': 'engine/host/postgres/shipper-main.ts',
  'ensure.cjs': 'cli/ensure-main.ts',
  'serve-worker.cjs': 'cli/serve-worker-main.ts',
  'suite-parser.cjs': 'cli/suite-parser-worker.ts',
  'sandbox.cjs': 'cli/sandbox-main.ts',
  'sandbox-inside.cjs': 'cli/sandbox-inside-main.ts',
  ...Object.fromEntries(LAZY_CHUNKS.map((c) => [c.chunk, c.entry])),
};

/**
 * `import * as fs from 'fs'` bundles to `__toESM(require("fs"))`, which copies every
 * export of the module into a new object with getters, at every import site (about 1 ms
 * of the runner's start-up). Node's built-in modules need no such wrapper: the source
 * only reads their named exports, never `.default`.
 */
function plainBuiltins(text) {
  return text.replace(/__toESM\(require\("((?:node:)?(?:fs|path|os|crypto|child_process|http|https|net|url|vm|module|events|util|zlib|stream))"\)\)/g, 'require("$1")');
}

/** The hot path must not carry the slow path's libraries (docs/performance.md). */
const HOOK_FORBIDDEN = ['yaml', 'ajv', 'commander', 'jsonata', 'mvdan-sh', 'picomatch', 'better-sqlite3', '@opentelemetry', 'pg', '@eslint-community/regexpp'];
const HOOK_MAX_BYTES = 300 * 1024;

function checkHookBundle(text, name = 'hook.cjs') {
  const found = HOOK_FORBIDDEN.filter((lib) => text.includes(`node_modules/${lib}/`));
  if (found.length > 0) throw new Error(`build: dist/${name} bundles ${found.join(', ')}; it runs at every event: it must load them lazily (external) or not at all`);
  if (text.length > HOOK_MAX_BYTES) console.warn(`build: dist/${name} is ${Math.round(text.length / 1024)} KiB (> ${HOOK_MAX_BYTES / 1024} KiB): every hook event reads it; check what was bundled`);
}

/**
 * The notices of the packages whose code the bundles carry (their licenses ask that a copy
 * keep them): each package's name, version and license, then its license and notice files,
 * in name order. `inputs`: the files esbuild bundled, relative to the project.
 */
const NOTICES = 'THIRD-PARTY-NOTICES.txt';
function thirdPartyNotices(inputs) {
  const packages = new Set();
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.split('\\').join('/'));
    if (m) packages.add(m[1]);
  }
  const sections = [...packages].map((dir) => {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const texts = readdirSync(join(root, dir)).filter((f) => /^(?:licen[cs]e|notice|copying)(?:[.-]|$)/i.test(f)).sort()
      .map((f) => readFileSync(join(root, dir, f), 'utf8').trim());
    if (texts.length === 0) throw new Error(`build: ${dir} is bundled but has no license file to keep with it`);
    return { title: `== ${manifest.name}@${manifest.version} (${manifest.license ?? 'see below'}) ==`, text: texts.join('\n\n') };
  });
  // Packages with the very same texts (the OpenTelemetry packages' Apache-2.0) share one copy.
  const byText = new Map();
  // One section per name and version (a package bundled from two folders is listed once).
  for (const section of [...new Map(sections.map((x) => [x.title, x])).values()].sort((a, b) => (a.title < b.title ? -1 : 1))) {
    byText.set(section.text, [...(byText.get(section.text) ?? []), section.title]);
  }
  const blocks = [...byText].map(([text, titles]) => `${titles.join('\n')}\n\n${text}\n`);
  return `The files of dist/ carry code of the packages below. Their licenses and notices follow.\n\n${blocks.join('\n')}`;
}

function writeAtomically(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** esbuild's input for a bundle: its entry file, or a module re-exporting each of a list. */
function entryOf(entry) {
  if (typeof entry === 'string') return { entryPoints: [join(root, entry)] };
  return { stdin: { contents: entry.map((e) => `export * from './${e.replace(/\.ts$/, '')}';`).join('\n'), resolveDir: root, loader: 'ts', sourcefile: 'chunk.ts' } };
}

// Bundle everything in memory first, then put each file in place by rename, so a runner
// started during a build sees a whole old bundle or a whole new one.
const results = await Promise.all(Object.entries(bundles).map(([out, entry]) =>
  build({ ...common, ...entryOf(entry), outfile: join(dist, out), write: false })));
mkdirSync(dist, { recursive: true });
checkHookBundle(results[0].outputFiles[0].text);
checkHookBundle(results[Object.keys(bundles).indexOf('ensure.cjs')].outputFiles[0].text, 'ensure.cjs');
for (const file of results.flatMap((r) => r.outputFiles)) writeAtomically(file.path, plainBuiltins(file.text));
// The secret formats the log and the memory store redact beyond hookpolicy's own: derived
// from a pinned copy of gitleaks' rules, each kept only if it passes the engine's
// linear-time check (the regex-safety chunk just built).
const GITLEAKS = join(root, 'third_party', 'gitleaks');
const secretFormats = deriveSecretFormats(readFileSync(join(GITLEAKS, 'gitleaks.toml'), 'utf8'), requireHere(join(dist, 'regex-safety.cjs')).isSuperLinear);
writeAtomically(join(dist, 'secret-formats.json'), `${JSON.stringify({ from: 'gitleaks config/gitleaks.toml (third_party/gitleaks)', formats: secretFormats.formats, left_out: secretFormats.skipped })}\n`);
const gitleaksNotice = `== gitleaks default rules (MIT): dist/secret-formats.json is derived from them ==\n\n${readFileSync(join(GITLEAKS, 'LICENSE'), 'utf8').trim()}\n`;
writeAtomically(join(dist, NOTICES), `${thirdPartyNotices(results.flatMap((r) => Object.keys(r.metafile.inputs)))}\n${gitleaksNotice}`);

// A bundle or chunk this build no longer makes (a chunk merged into another) would still be
// packed and shipped: removed.
for (const name of readdirSync(dist)) {
  if (name.endsWith('.cjs') && !Object.hasOwn(bundles, name)) rmSync(join(dist, name), { force: true });
}

// The shipped packs' parses, by the compiler just built (engine/host/shipped-parses.ts): a
// compile that includes a pack unchanged takes them instead of parsing its YAML again.
const compiler = requireHere(join(dist, 'compile.cjs'));
writeAtomically(join(dist, compiler.SHIPPED_PARSES_FILE), `${JSON.stringify(compiler.shippedParsesOf(join(root, 'policies')))}\n`);
