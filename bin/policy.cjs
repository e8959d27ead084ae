#!/usr/bin/env node
'use strict';
// `policy hook` runs on every Claude Code hook event: it loads only dist/hook.cjs
// (no commander, yaml or ajv), through a V8 code cache so that the bundle is not parsed
// and compiled again at every event. Everything else, `policy hook --help` included,
// goes through the commander CLI.
//
// The code cache (Node 20 has no module.enableCompileCache): while the hook runs,
// Module.prototype._compile is wrapped so that the bundle (and dist/compile.cjs on a
// policy cache miss), the chunks beside it (dist/shell.cjs, dist/regex-safety.cjs, dist/memory.cjs) and any dependency
// it requires lazily from node_modules (jsonata, picomatch, the shell parser), is compiled by
// vm.Script with `cachedData` read from <package>/.code-cache/v8-<module>-<key>.cache, one file
// per module: <module> names the file, <key> its identity (device, inode, size, mtime,
// ctime), the Node version and arch, so the cache is one plain read with no header to
// parse. A missing, stale or rejected cache costs only time: the module compiles from
// source and its cache is rewritten (atomically) after the answer is written, and the
// module's caches for other keys are removed then.
// A cache holds the functions compiled by the runs that wrote it; any other function is
// compiled again at every event that reaches it (~0.5-0.8 ms for a deny or a file walk
// when the cache was written by an event that matched nothing). So the kinds of run
// (event, tool, outcome) a cache has seen are listed in v8-<module>-<key>.kinds, read
// after the answer is written, and a hit by a new kind writes the cache again with what
// this run compiled too, until it has seen them all (at most 64 kinds). A run that
// compiled the policy (it loaded dist/compile.cjs) writes no cache for the bundle: the
// functions of that path would be deserialized at every later event for nothing.
// V8 checks cached data against the source's length, not its content: the code in a cache
// runs whatever source it was made from. So a code cache is kept where it is exactly as hard
// to change as the code it caches: inside the installed package, beside bin/ and dist/, in a
// folder owned by the module file's owner and writable by nobody else, and stored only by
// that owner (who could rewrite the file itself). No environment variable moves it, and
// nothing is read from the user's cache folders or /tmp. A package installed by root for
// every user has the caches root wrote (one event run as root), or compiles from source at
// every event (docs/commands/hook.md, docs/reliability.md).
// HOOKPOLICY_CODE_CACHE=off turns it off; HOOKPOLICY_DEBUG_CODE_CACHE=1 reports
// hit/miss/rejected/extended per module on stderr.

const fs = require('fs');
const path = require('path');

/** The Module class, without require('module'), which loads the ESM loader and source maps (~0.2 ms). */
const Module = module.constructor;

/**
 * A CommonJS file's exports, loaded once by its known path (a bundle, a chunk beside it),
 * through Module.prototype._compile (so through the code cache once
 * it is installed) but without the module resolver: its stat and realpath calls, and
 * Node's first-use set-up of them, would only cost time (~0.2-0.3 ms an event).
 */
const loadByPath = (function loadByPath(file) {
  const loaded = Module._cache[file];
  if (loaded) return loaded.exports;
  const module = new Module(file, null);
  module.filename = file;
  module.paths = Module._nodeModulePaths(path.dirname(file));
  Module._cache[file] = module;
  try {
    module._compile(fs.readFileSync(file, 'utf8'), file);
  } catch (e) {
    delete Module._cache[file];
    throw e;
  }
  module.loaded = true;
  return module.exports;
});

/**
 * The file a relative `require(id)` from a module in `dir` loads, found as Node's resolver
 * looks (the exact name, then with `.js`), when it is a plain .js or .cjs file reached
 * through no symlink (lstat of it and of each folder `id` names below `dir`; `dir` is real,
 * the requiring module's path was resolved), so its path is the real one Node would give
 * it; null for anything else (a folder's index, JSON, an addon, a symlink, a bare name),
 * which goes to the resolver. A dependency loaded lazily (picomatch's 6 files; better-sqlite3's
 * 13 when the bundled copy is not used) then costs a few lstat calls a file instead of the
 * resolver's stats and realpath (~0.1 ms each).
 */
const relativeScript = (function relativeScript(dir, id) {
  if (!id.startsWith('./') && !id.startsWith('../')) return null;
  let folder = dir;
  for (const part of id.split('/').slice(0, -1)) {
    folder = path.join(folder, part);
    // '.' stays and '..' goes up: the parent of a real folder is real.
    if (part === '.' || part === '..') continue;
    const stat = fs.lstatSync(folder, { throwIfNoEntry: false });
    if (stat === undefined || !stat.isDirectory()) return null;
  }
  const base = path.resolve(dir, id);
  for (const file of [base, `${base}.js`]) {
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (stat === undefined || stat.isDirectory()) continue;
    return stat.isFile() && (file.endsWith('.js') || file.endsWith('.cjs')) ? file : null;
  }
  return null;
});

/** What the bundles require of the files beside them: `./shell.cjs`, `./compile.cjs`... */
const CHUNK = /^\.\/[a-z][a-z0-9-]*\.cjs$/;

// This file is not in any code cache: the functions every hook event calls are written in
// parentheses, which V8 compiles at once instead of parsing them twice (a quick pre-parse,
// then a full one at the first call). Measured: ~0.2-0.3 ms per event. The dispatch is at
// the end, once they are defined.

const runHook = (function runHook(bundle) {
  let hook;
  const cache = process.env.HOOKPOLICY_CODE_CACHE === 'off' ? null : installCodeCache(bundle);
  try {
    hook = cache ? cache.load(bundle) : require(bundle);
  } catch (e) {
    // The runner itself is missing (package not built): say so, visibly, without a trace.
    const message = `hookpolicy: error internal-error: cannot load the hook runner (${e && e.message}) (failing open: the event was not checked)`;
    process.stdout.write(`${JSON.stringify({ systemMessage: message })}\n`);
    process.stderr.write(`${message}\n`);
    return;
  }
  hook.main(process.argv.slice(3)).then((result) => {
    process.exitCode = result.exitCode;
    // The answer is written; only now pay for storing new code caches, which can never
    // change the exit code.
    storeCaches(cache, result.runKind);
    // After a deadline, evaluation may still hold the event loop open: stop now.
    if (result.timedOut) process.exit();
    endIfIdle();
  });
});

/**
 * Ends the process at once when nothing keeps its event loop alive: the answer is written
 * (synchronously) and the caches stored, so Node's own teardown of the heap and the
 * environment, and a garbage collection V8 may have queued for the loop, would only
 * delay Claude Code (~0.4-0.7 ms per event, docs/performance.md). Anything still pending
 * (a timer, a socket, a child that is not detached) is waited for as usual.
 */
const endIfIdle = (function endIfIdle() {
  if (typeof process.getActiveResourcesInfo === 'function' && process.getActiveResourcesInfo().length === 0) process.exit();
});

/**
 * Wraps Module.prototype._compile for the files beside the bundle and under node_modules;
 * returns { load(file), finish(debug, runKind) }: load compiles the bundle through it,
 * finish stores the caches that missed or met a new kind of run, and restores nothing
 * (the process is about to end).
 */
const installCodeCache = (function installCodeCache(bundle) {
  const vm = require('vm');
  // Looked at once per event (not followed if a link): whose it is, and who else may write it.
  const folder = fs.lstatSync(CODE_CACHE_DIR, { throwIfNoEntry: false });
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const compiled = [];
  const original = Module.prototype._compile;
  const dist = path.dirname(bundle);
  Module.prototype._compile = (function compileWithCache(content, filename) {
    if (path.dirname(filename) !== dist && !filename.includes(`${path.sep}node_modules${path.sep}`)) return original.call(this, content, filename);
    let script;
    const entry = { file: filename, prefix: `v8-${shortHash(filename)}-`, name: '', status: 'miss', note: '', script: null, store: false };
    try {
      const stat = fs.statSync(filename);
      // The file's identity, not only its size and mtime: a file rewritten in place, or
      // replaced by one of the same size and mtime, has another inode or ctime.
      entry.name = `${entry.prefix}${shortHash(`${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${process.version}:${process.arch}`)}`;
      const refused = cacheRefusal(folder, stat, uid, filename);
      // Stored only by the module's owner: a package installed by root for everyone has the
      // caches root wrote, or none.
      entry.store = refused === '' && (uid === null || stat.uid === uid);
      const cached = refused || folder === undefined ? null : readCodeCache(CODE_CACHE_DIR, `${entry.name}.cache`);
      script = new vm.Script(Module.wrap(content), { filename, cachedData: cached || undefined });
      entry.status = refused ? 'unused' : !cached ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
      if (refused) entry.note = `, not read nor stored: ${refused}`;
      entry.script = script;
    } catch {
      return original.call(this, content, filename);
    }
    compiled.push(entry);
    const module = this;
    // The bundle requires fs and path at every import site: answer repeats from a map.
    // A chunk beside it (`./shell.cjs`) is loaded like the bundle, without the resolver's
    // stat and realpath calls (~0.3 ms): its path is known. So is a dependency's own file
    // (picomatch's `./lib/scan`...) when relativeScript finds it.
    const required = new Map();
    const require = (id) => {
      let exports = required.get(id);
      if (exports === undefined) {
        const file = CHUNK.test(id) ? path.join(dist, id) : relativeScript(path.dirname(filename), id);
        required.set(id, (exports = file ? loadByPath(file) : module.require(id)));
      }
      return exports;
    };
    require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
    require.cache = Module._cache;
    require.main = process.mainModule;
    return script.runInThisContext().call(module.exports, module.exports, require, module, filename, path.dirname(filename));
  });
  return {
    /** The bundle's exports, compiled through the cache (loadByPath). */
    load: loadByPath,
    finish: (function finish(debug, runKind) {
      // The kinds are kept one per line.
      let kind = typeof runKind === 'string' ? runKind : '';
      if (kind.includes('\n') || kind.includes('\r')) kind = kind.split(/[\r\n]/).join('_');
      const compiledPolicy = compiled.some((entry) => entry.file === path.join(dist, 'compile.cjs'));
      for (const entry of compiled) {
        if (entry.status === 'unused') {
          // Neither read nor stored (compileWithCache says why).
        } else if (compiledPolicy && entry.file === bundle) {
          if (entry.status !== 'hit') entry.note = ', not stored: this run compiled the policy';
        } else if (!entry.store) {
          if (entry.status !== 'hit') entry.note = ', not stored: only the owner of the file stores its cache';
        } else if (entry.status !== 'hit') {
          storeCodeCache(CODE_CACHE_DIR, entry, kind ? [kind] : []);
        } else if (kind) {
          const kinds = readKinds(CODE_CACHE_DIR, entry.name);
          if (!kinds.includes(kind) && kinds.length < 64) {
            entry.status = 'extended';
            storeCodeCache(CODE_CACHE_DIR, entry, [...kinds, kind]);
          }
        }
        if (debug) process.stderr.write(`hookpolicy: code cache ${entry.status} ${path.basename(entry.file)} (${path.join(CODE_CACHE_DIR, `${entry.name}.cache`)})${entry.note}\n`);
      }
    }),
  };
});

/** Stores the code caches a run missed or extended (installCodeCache's finish), after its answer. */
const storeCaches = (function storeCaches(cache, runKind) {
  try {
    if (cache) cache.finish(process.env.HOOKPOLICY_DEBUG_CODE_CACHE === '1', runKind);
  } catch {
    // A cache that cannot be stored costs only time.
  }
});

/**
 * A cache file's bytes, read only when it is a regular file: opened without blocking and
 * without following a symlink, so that a FIFO planted in the cache folder cannot hold the
 * runner until Claude Code's hook timeout lets the call through. Throws otherwise.
 */
function readPlain(file) {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK || 0) | (fs.constants.O_NOFOLLOW || 0));
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${file} is not a regular file`);
    // Its size from the stat just taken: readFileSync(fd) would take it again.
    const data = Buffer.allocUnsafe(stat.size);
    let got = 0;
    while (got < data.length) {
      const n = fs.readSync(fd, data, got, data.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === data.length ? data : data.subarray(0, got);
  } finally {
    fs.closeSync(fd);
  }
}

/** The cached data in the file `name` of `dir`, or null. */
const readCodeCache = (function readCodeCache(dir, name) {
  try {
    return readPlain(path.join(dir, name));
  } catch {
    return null; // Not there (or not a regular file): compiled from source.
  }
});

/** The kinds of run the cache `name` in `dir` has seen (one per line of its .kinds file). */
function readKinds(dir, name) {
  try {
    return readPlain(path.join(dir, `${name}.kinds`)).toString('utf8').split('\n').filter((k) => k !== '');
  } catch {
    return [];
  }
}

/**
 * Writes the cached data, then the kinds it has seen, each to a temporary file renamed
 * into the code-cache folder (made when missing: 0755, files 0644, so that the users of an
 * installation shared with them read the caches its owner wrote); then removes that
 * folder's caches of the same module for other keys (older builds, other Node versions).
 */
function storeCodeCache(dir, entry, kinds) {
  let data;
  try {
    data = entry.script.createCachedData();
  } catch {
    return;
  }
  const file = path.join(dir, `${entry.name}.cache`);
  try {
    try {
      fs.mkdirSync(dir, { mode: 0o755 });
    } catch (e) {
      if (!e || e.code !== 'EEXIST') throw e;
    }
    if (!ownFolder(dir)) return; // made by someone else meanwhile
    writeAtomically(file, data);
    writeAtomically(path.join(dir, `${entry.name}.kinds`), kinds.map((k) => `${k}\n`).join(''));
  } catch {
    // No cache without its kinds (it would be extended again at every event).
    try {
      fs.rmSync(file, { force: true });
    } catch {
      // Left as it is: it costs a rewrite per new kind of run, never an answer.
    }
    return;
  }
  removeOtherKeys(dir, entry);
}

function writeAtomically(file, content) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, content, { mode: 0o644 });
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** Removes v8-<module>-<other key>.cache/.kinds (and the older single-file v8-<module>.cache) beside the one just stored. */
function removeOtherKeys(dir, entry) {
  const legacy = `${entry.prefix.slice(0, -1)}.cache`;
  try {
    for (const name of fs.readdirSync(dir)) {
      const stale = name === legacy
        || (name.startsWith(entry.prefix) && !name.startsWith(`${entry.name}.`) && (name.endsWith('.cache') || name.endsWith('.kinds')));
      if (stale) fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // A cache that stays behind costs only disk space.
  }
}

/**
 * The code caches' folder: inside the installed package, beside bin/ and dist/, so that
 * whoever can change a cache there can change the bundle itself (self-protection guards
 * both as the installed package).
 */
const CODE_CACHE_DIR = path.join(__dirname, '..', '.code-cache');

/**
 * Why a module's code cache may not be read from the code-cache folder (`folder`, its
 * lstat, undefined when missing), or '' when it may: the folder must be a folder, not a
 * link, owned by the owner of the module file and writable by nobody else, so that only
 * who can rewrite the module can change its cache. A missing folder is made by the
 * module's owner at its first store.
 */
const cacheRefusal = (function cacheRefusal(folder, stat, uid, filename) {
  if (uid === null) return '';
  if (folder === undefined) return stat.uid === uid ? '' : `${filename} is not this user's, and its owner wrote no code cache`;
  if (!folder.isDirectory()) return `${CODE_CACHE_DIR} is not a folder`;
  if (folder.uid !== stat.uid) return `${CODE_CACHE_DIR} is not owned by the owner of ${filename}`;
  if ((folder.mode & 0o022) !== 0) return `${CODE_CACHE_DIR} can be written by other users`;
  return '';
});

/** True when the code-cache folder is this user's alone, or not there yet: checked again right before a write. */
const ownFolder = (function ownFolder(dir) {
  if (typeof process.getuid !== 'function') return true;
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  return st === undefined || (st.isDirectory() && st.uid === process.getuid() && (st.mode & 0o022) === 0);
});

/** A short, stable name for one installed bundle (FNV-1a, no crypto needed). */
const shortHash = (function shortHash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
});

/**
 * Every other command: the commander CLI (dist/cli.cjs, ~1.5 MB), through the same code
 * cache, one kind of run per command name, so that `policy serve --ensure` at each prompt,
 * `policy lint` and the rest compile less of it again (`policy --version`: ~95 -> ~70 ms).
 * The policy server itself (`policy serve` without --ensure or --stop) runs for minutes and
 * starts once: it uses no code cache, and writes none as it exits.
 */
const runCli = (function runCli(bundle, command, installed) {
  const server = command === 'serve' && !args.includes('--ensure') && !args.includes('--stop');
  const cache = installed !== undefined ? installed : process.env.HOOKPOLICY_CODE_CACHE === 'off' || server ? null : installCodeCache(bundle);
  const cli = cache ? cache.load(bundle) : require(bundle);
  cli.main(process.argv).then((code) => {
    process.exitCode = code;
    storeCaches(cache, `cli ${command}`);
  });
});

/**
 * `policy serve --ensure`, the http install's hook at every session start and prompt:
 * dist/ensure.cjs (~20 KB) instead of the CLI, when the arguments have the shape init
 * writes; any other shape (and a missing bundle) goes to the CLI, with the same cache.
 */
const runEnsure = (function runEnsure(bundle, cliBundle) {
  const cache = process.env.HOOKPOLICY_CODE_CACHE === 'off' ? null : installCodeCache(bundle);
  let run = null;
  try {
    run = (cache ? cache.load(bundle) : require(bundle)).main(args.slice(1), path.resolve(process.argv[1] || 'policy'));
  } catch {
    run = null;
  }
  if (run === null) return runCli(cliBundle, 'serve', cache);
  run.then((code) => {
    process.exitCode = code;
    storeCaches(cache, 'ensure');
    endIfIdle();
  });
});

const args = process.argv.slice(2);
const asksHelp = args.includes('--help') || args.includes('-h');
if (require.main !== module) {
  // Required, not run (test/e2e/bin-loader.test.ts): what its tests read, and nothing runs.
  module.exports = { relativeScript };
} else if (args[0] === 'hook' && !asksHelp) {
  runHook(path.join(__dirname, '..', 'dist', 'hook.cjs'));
} else if (args[0] === 'serve' && args.includes('--ensure') && !asksHelp) {
  runEnsure(path.join(__dirname, '..', 'dist', 'ensure.cjs'), path.join(__dirname, '..', 'dist', 'cli.cjs'));
} else {
  runCli(path.join(__dirname, '..', 'dist', 'cli.cjs'), /^[a-z-]+$/.test(args[0] || '') ? args[0] : '');
}
