/**
 * better-sqlite3, loaded only when the store is read (never on a recording event), and
 * the little of its API the index uses. It is a native module: when its build step did
 * not run (npm 11 runs a dependency's install script only once the project allows it),
 * loading it fails, and the store says how to fix that instead of failing obscurely.
 */
import * as fs from 'fs';
import * as path from 'path';

export interface SqliteStatement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): void;
}

type SqliteConstructor = new (file: string, options?: { timeout?: number; nativeBinding?: string }) => SqliteDatabase;

/** The fix for a store whose index cannot be opened, as the diagnostic's hint gives it. */
export const MEMORY_UNAVAILABLE_FIX = 'in the project that installed hookpolicy, allow and run better-sqlite3\'s build: '
  + '`npm install-scripts approve better-sqlite3` (npm 11), then `npm rebuild better-sqlite3` '
  + '(`npm install better-sqlite3@12.4.1` when it is not installed at all); where no prebuilt binary can be downloaded, the build needs python3, make and a C++ compiler';

/** The store's index cannot be read because better-sqlite3 cannot be loaded. Records are still appended. */
export class MemoryUnavailableError extends Error {
  readonly code = 'memory-unavailable';
  readonly hint = MEMORY_UNAVAILABLE_FIX;
  constructor(readonly cause: string) {
    super(`the memory store cannot be read: better-sqlite3 is not installed or not built (${cause}); records are still kept in the journal`);
    this.name = 'MemoryUnavailableError';
  }
}

let loaded: SqliteConstructor | MemoryUnavailableError | undefined;
let binding: string | undefined;

/** better-sqlite3's version when the bundle carries its JavaScript (scripts/build.mjs); undefined in the sources. */
declare const BUNDLED_BETTER_SQLITE3: string | undefined;

/**
 * better-sqlite3's Database class; throws MemoryUnavailableError when it cannot be loaded.
 * @example const db = new (loadSqlite())('/p/.claude/hookpolicy/memory/index.db')
 */
export function loadSqlite(): SqliteConstructor {
  if (loaded === undefined) {
    try {
      // HOOKPOLICY_NO_SQLITE=1 stands for a project where the module was never built (tests, docs).
      if (process.env.HOOKPOLICY_NO_SQLITE === '1') throw new Error('HOOKPOLICY_NO_SQLITE=1');
      binding = builtBinding();
      // Given its addon, the Database class alone: one module, bundled in dist/ (scripts/build.mjs).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      loaded = (binding ? require('better-sqlite3/lib/database') : require('better-sqlite3')) as SqliteConstructor;
    } catch (e) {
      loaded = new MemoryUnavailableError(firstLine((e as Error)?.message ?? String(e)));
    }
  }
  if (loaded instanceof MemoryUnavailableError) throw loaded;
  return loaded;
}

/**
 * Opens an SQLite database file; throws MemoryUnavailableError when better-sqlite3 cannot
 * be loaded.
 * @example openDatabase('/p/.claude/hookpolicy/memory/index.db', 5000).pragma('journal_mode = WAL')
 */
export function openDatabase(file: string, timeoutMs: number): SqliteDatabase {
  const Database = loadSqlite();
  try {
    return new Database(file, binding ? { timeout: timeoutMs, nativeBinding: binding } : { timeout: timeoutMs });
  } catch (e) {
    // The JavaScript loads without the addon; the addon is loaded here: not built, or built for another Node.
    const message = (e as Error)?.message ?? String(e);
    if (ADDON_MISSING.test(message)) {
      loaded = new MemoryUnavailableError(firstLine(message));
      throw loaded;
    }
    throw e;
  }
}

/** What loading the addon says when it is not built, or not for this Node. */
const ADDON_MISSING = /bindings file|better_sqlite3\.node|NODE_MODULE_VERSION|ERR_DLOPEN_FAILED|invalid ELF|wrong ELF class/;

/**
 * The built addon's path, when it is where better-sqlite3 builds it and belongs to the
 * version whose JavaScript the bundle carries: given to the constructor, it skips the
 * `bindings` package's search of a dozen places (~1 ms). Otherwise (another version
 * installed, an addon elsewhere) the package is loaded as it is, and finds its own.
 */
function builtBinding(): string | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const manifest = require.resolve('better-sqlite3/package.json');
    if (typeof BUNDLED_BETTER_SQLITE3 === 'string' && installedVersion(manifest) !== BUNDLED_BETTER_SQLITE3) return undefined;
    const file = path.join(path.dirname(manifest), 'build', 'Release', 'better_sqlite3.node');
    return fs.existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

function installedVersion(manifest: string): unknown {
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: unknown }).version;
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 200);
}
