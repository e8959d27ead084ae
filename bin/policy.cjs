#!/usr/bin/env node
'use strict';
// `policy hook` runs on every Claude Code hook event: it loads only dist/hook.cjs
// (no commander, yaml or ajv), through a V8 code cache so that the bundle is not parsed
// and compiled again at every event. Everything else, `policy hook --help` included,
// goes through the commander CLI.
//
// The code cache (Node 20 has no module.enableCompileCache): while the hook runs,
// Module.prototype._compile is wrapped so that the bundle (and dist/compile.cjs on a
// policy cache miss), the chunks beside it (dist/shell.cjs, dist/regex-safety.cjs) and any dependency
// it requires lazily from node_modules (jsonata, picomatch, the shell parser), is compiled by
// vm.Script with `cachedData` read from <cache dir>/v8-<id>.cache, one file per module,
// whose first line is the key (size and mtime of the file, Node version, arch), a tab,
// and the kinds of run the cache has seen. A missing, stale or rejected cache costs only
// time: the module compiles from source and its cache is rewritten (atomically) after the
// answer is written.
// A cache holds the functions compiled by the runs that wrote it; any other function is
// compiled again at every event that reaches it (~0.5-0.8 ms for a deny or a file walk
// when the cache was written by an event that matched nothing). So a hit by a new kind
// of run (event, tool, outcome) writes the cache again with what this run compiled too,
// until it has seen them all (at most 64 kinds).
// HOOKPOLICY_CODE_CACHE=off turns it off; HOOKPOLICY_DEBUG_CODE_CACHE=1 reports
// hit/miss/rejected/extended per module on stderr.

const fs = require('fs');
const path = require('path');

// This file is not in any code cache: the functions every hook event calls are written in
// parentheses, which V8 compiles at once instead of parsing them twice (a quick pre-parse,
// then a full one at the first call). Measured: ~0.2-0.3 ms per event. The dispatch is at
// the end, once they are defined.

const runHook = (function runHook(bundle) {
  let hook;
  const cache = process.env.HOOKPOLICY_CODE_CACHE === 'off' ? null : installCodeCache(bundle, process.env);
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
    // The answer is written; only now pay for storing new code caches.
    if (cache) cache.finish(process.env.HOOKPOLICY_DEBUG_CODE_CACHE === '1', result.runKind);
    // After a deadline, evaluation may still hold the event loop open: stop now.
    if (result.timedOut) process.exit();
  });
});

/**
 * Wraps Module.prototype._compile for the files beside the bundle and under node_modules;
 * returns { load(file), finish(debug, runKind) }: load compiles the bundle through it,
 * finish stores the caches that missed or met a new kind of run, and restores nothing
 * (the process is about to end).
 */
const installCodeCache = (function installCodeCache(bundle, env) {
  const vm = require('vm');
  const Module = require('module');
  const dirs = cacheDirs(env);
  const compiled = [];
  const original = Module.prototype._compile;
  const dist = path.dirname(bundle);
  Module.prototype._compile = (function compileWithCache(content, filename) {
    if (path.dirname(filename) !== dist && !filename.includes(`${path.sep}node_modules${path.sep}`)) return original.call(this, content, filename);
    let script;
    const entry = { file: filename, name: `v8-${shortHash(filename)}.cache`, key: null, kinds: [], status: 'miss', script: null };
    try {
      const stat = fs.statSync(filename);
      entry.key = `${stat.size}:${stat.mtimeMs}:${process.version}:${process.arch}`;
      const cached = readCodeCache(dirs, entry.name, entry.key);
      const cachedData = cached && cached.data;
      if (cached) entry.kinds = cached.kinds;
      script = new vm.Script(Module.wrap(content), { filename, cachedData: cachedData || undefined });
      entry.status = !cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
      entry.script = script;
    } catch {
      return original.call(this, content, filename);
    }
    compiled.push(entry);
    const module = this;
    // The bundle requires fs and path at every import site: answer repeats from a map.
    const required = new Map();
    const require = (id) => {
      let exports = required.get(id);
      if (exports === undefined) required.set(id, (exports = module.require(id)));
      return exports;
    };
    require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
    require.cache = Module._cache;
    require.main = process.mainModule;
    return script.runInThisContext().call(module.exports, module.exports, require, module, filename, path.dirname(filename));
  });
  return {
    /**
     * The bundle's exports, compiled through the cache without the module resolver: its path
     * is known, so the stat and realpath calls of require() would only cost time.
     */
    load: (function load(file) {
      const module = new Module(file, null);
      module.filename = file;
      module.paths = Module._nodeModulePaths(path.dirname(file));
      Module._cache[file] = module;
      module._compile(fs.readFileSync(file, 'utf8'), file);
      module.loaded = true;
      return module.exports;
    }),
    finish: (function finish(debug, runKind) {
      // The kinds are kept comma-separated on the cache's first line.
      let kind = typeof runKind === 'string' ? runKind : '';
      if (kind.includes(',') || kind.includes('\t') || kind.includes('\n') || kind.includes('\r')) kind = kind.split(/[,\t\r\n]/).join('_');
      for (const entry of compiled) {
        if (entry.status !== 'hit') {
          entry.kinds = kind ? [kind] : [];
          storeCodeCache(dirs, entry);
        } else if (kind && !entry.kinds.includes(kind) && entry.kinds.length < 64) {
          entry.status = 'extended';
          entry.kinds = [...entry.kinds, kind];
          storeCodeCache(dirs, entry);
        }
        if (debug) process.stderr.write(`hookpolicy: code cache ${entry.status} ${path.basename(entry.file)} (${entry.stored || path.join(dirs[0], entry.name)})\n`);
      }
    }),
  };
});

/** The cached data for `key` from the first folder that has it, and the kinds of run it has seen; or null. */
const readCodeCache = (function readCodeCache(dirs, name, key) {
  for (const dir of dirs) {
    let buffer;
    try {
      buffer = fs.readFileSync(path.join(dir, name));
    } catch {
      continue;
    }
    const newline = buffer.indexOf(10);
    if (newline <= 0) continue;
    const [found, kinds] = buffer.toString('utf8', 0, newline).split('\t');
    if (found === key) return { data: buffer.subarray(newline + 1), kinds: kinds ? kinds.split(',') : [] };
  }
  return null;
});

/** Writes key + cached data to a temporary file and renames it into the first writable folder. */
function storeCodeCache(dirs, entry) {
  let data;
  try {
    data = entry.script.createCachedData();
  } catch {
    return;
  }
  const content = Buffer.concat([Buffer.from(`${entry.key}\t${entry.kinds.join(',')}\n`, 'utf8'), data]);
  for (const dir of dirs) {
    const file = path.join(dir, entry.name);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(tmp, content, { mode: 0o600 });
      fs.renameSync(tmp, file);
      entry.stored = file;
      return;
    } catch {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // Nothing to clean up.
      }
    }
  }
}

/**
 * The same folders as the compiled-policy cache (engine/host/cache-store.ts
 * cacheDirectories), found the same way: from the environment, loading `os` only where
 * it must (Windows, no $HOME).
 */
const cacheDirs = (function cacheDirs(env) {
  const windows = process.platform === 'win32';
  const home = !windows && env.HOME ? env.HOME : require('os').homedir();
  const primary = env.HOOKPOLICY_CACHE_DIR
    || (env.XDG_CACHE_HOME ? path.join(env.XDG_CACHE_HOME, 'hookpolicy') : path.join(home, '.cache', 'hookpolicy'));
  let tmp = windows ? require('os').tmpdir() : env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  if (!windows && tmp.length > 1 && tmp.endsWith('/')) tmp = tmp.slice(0, -1);
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
  const fallback = path.join(tmp, `hookpolicy-${user}`);
  return primary === fallback ? [primary] : [primary, fallback];
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

const args = process.argv.slice(2);
if (args[0] === 'hook' && !args.includes('--help') && !args.includes('-h')) {
  runHook(path.join(__dirname, '..', 'dist', 'hook.cjs'));
} else {
  require('../dist/cli.cjs').main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
