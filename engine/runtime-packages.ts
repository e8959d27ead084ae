/**
 * The packages the engine loads at run time, and everything they depend on. The bundles
 * leave them external (scripts/build.mjs): the runner, the compiler it loads after an edit
 * and the policy server require them from node_modules, so whoever rewrites one of them runs
 * code in the guard (`node_modules/mvdan-sh/index.js` answering every Bash event).
 * Self-protection guards them where npm installs them, beside hookpolicy. A test computes the
 * list again from node_modules and from the bundles' requires (runtime-packages.test.ts).
 */

/** What the bundles require by name (ajv: its runtime helpers, for the compiled schema validators). */
export const RUNTIME_ROOTS: readonly string[] = ['jsonata', 'mvdan-sh', 'picomatch', 'better-sqlite3', 'pg', 'ajv'];

/** RUNTIME_ROOTS and their dependencies (optional ones included), sorted. */
export const RUNTIME_PACKAGES: readonly string[] = [
  'ajv', 'base64-js', 'better-sqlite3', 'bindings', 'bl', 'buffer', 'chownr',
  'decompress-response', 'deep-extend', 'detect-libc', 'end-of-stream', 'expand-template',
  'fast-deep-equal', 'fast-uri', 'file-uri-to-path', 'fs-constants', 'github-from-package',
  'ieee754', 'inherits', 'ini', 'json-schema-traverse', 'jsonata', 'mimic-response', 'minimist',
  'mkdirp-classic', 'mvdan-sh', 'napi-build-utils', 'node-abi', 'once', 'pg', 'pg-cloudflare',
  'pg-connection-string', 'pg-int8', 'pg-pool', 'pg-protocol', 'pg-types', 'pgpass', 'picomatch',
  'postgres-array', 'postgres-bytea', 'postgres-date', 'postgres-interval', 'prebuild-install',
  'pump', 'rc', 'readable-stream', 'require-from-string', 'safe-buffer', 'semver',
  'simple-concat', 'simple-get', 'split2', 'string_decoder', 'strip-json-comments', 'tar-fs',
  'tar-stream', 'tunnel-agent', 'util-deprecate', 'wrappy', 'xtend',
];
