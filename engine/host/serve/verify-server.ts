/**
 * Is the process listening on the port a policy server this hook may trust? On Linux the
 * answer does not rest on what the listener says (a same-user process may know the token):
 * the hook looks at the process itself, in /proc:
 * - it holds the socket listening on 127.0.0.1:<port>;
 * - it runs a node this hook would run (its own, or a `node` on its PATH: the guarded
 *   programs) with `<install>/bin/policy.cjs serve --sessions --port <port>` and no option
 *   before the script, and no NODE_OPTIONS in its environment (`--require` would load
 *   anything into it);
 * - the files of its install that it runs (bin/policy.cjs, dist/cli.cjs) have not changed
 *   since it started, and hold what this hook's own install holds.
 * A listener that fails one of these yet is hookpolicy's server by its command line
 * (`suspect`) is stopped and replaced by the hook; anything else on the port is `foreign`.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { listenerSocket, socketInodes } from './processes';

/** What the hook knows of itself: its node, its PATH and its install. */
export interface Verifier {
  port: number;
  /** The node running the hook (process.execPath). */
  node: string;
  /** The hook's PATH: a `node` found there is a node Claude Code would start too. */
  pathVariable: string;
  /** The hookpolicy package folder the hook runs from. */
  install: string;
}

export type Verdict =
  | { kind: 'trusted' }
  /** hookpolicy's server by its command line, but not one to trust: it is to be stopped. */
  | { kind: 'suspect'; why: string }
  | { kind: 'foreign'; why: string }
  /** /proc cannot tell (not Linux): the token's proof is all there is. */
  | { kind: 'unknown' };

/** How far a file's change may seem to follow its server's start and still count as before it. */
const START_SLACK_MS = 50;

/** The files of an install the server runs; a server's copy must equal the hook's own. */
const SERVER_FILES = ['bin/policy.cjs', 'dist/cli.cjs'];

/**
 * @example verifyServer(4242, { port: 8707, node: process.execPath, pathVariable: process.env.PATH, install: '/p/node_modules/hookpolicy' }) // { kind: 'trusted' }
 */
export function verifyServer(pid: number, v: Verifier): Verdict {
  if (process.platform !== 'linux') return { kind: 'unknown' };
  const listener = listenerSocket(v.port);
  if (listener === null) return { kind: 'foreign', why: `nothing this user owns listens on 127.0.0.1:${v.port}` };
  const inodes = socketInodes(pid);
  if (inodes === null || !inodes.has(listener.inode)) return { kind: 'foreign', why: `the process that says it is the server (pid ${pid}) does not hold the port` };
  return judgeProcess(pid, v);
}

/**
 * The process of this user that holds the socket listening on the port, found through
 * /proc (for a listener that does not answer), or null.
 * @example listenerPid(8707) // 4242
 */
export function listenerPid(port: number): number | null {
  const listener = listenerSocket(port);
  if (listener === null) return null;
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return null;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (uid !== undefined && fs.statSync(`/proc/${name}`).uid !== uid) continue;
    } catch {
      continue;
    }
    if (socketInodes(Number(name))?.has(listener.inode)) return Number(name);
  }
  return null;
}

/** The /proc checks of a process known to hold the port. */
export function judgeProcess(pid: number, v: Verifier): Verdict {
  const argv = readNulList(`/proc/${pid}/cmdline`);
  if (argv === null) return { kind: 'foreign', why: `pid ${pid} cannot be read` };
  const script = argv[1] ?? '';
  const shape = path.isAbsolute(script) && script.endsWith(`${path.sep}bin${path.sep}policy.cjs`) && argv[2] === 'serve' && argv.includes('--sessions');
  if (!shape) return { kind: 'foreign', why: `pid ${pid} is not hookpolicy's policy server (${argv.slice(0, 3).join(' ')})` };
  const suspect = (why: string): Verdict => ({ kind: 'suspect', why: `hookpolicy's server pid ${pid} cannot be trusted: ${why}` });
  const portAt = argv.indexOf('--port');
  if (portAt < 0 || argv[portAt + 1] !== String(v.port)) return suspect(`it was started for another port (${argv.slice(2).join(' ')})`);
  const exe = realpath(`/proc/${pid}/exe`);
  if (exe === null || !knownNodes(v).has(exe)) return suspect(`it runs ${exe ?? 'a program that cannot be read'}, not a node this hook would run`);
  const environ = readNulList(`/proc/${pid}/environ`);
  if (environ === null) return suspect('its environment cannot be read');
  const options = environ.find((e) => e.startsWith('NODE_OPTIONS='));
  if (options !== undefined && options !== 'NODE_OPTIONS=') return suspect(`it was started with ${options}`);
  const started = startedAtMs(pid);
  if (started === null) return suspect('its start time cannot be read');
  const theirs = path.dirname(path.dirname(script));
  for (const file of SERVER_FILES) {
    const problem = sameFile(path.join(theirs, file), path.join(v.install, file), started);
    if (problem !== null) return suspect(problem);
  }
  return { kind: 'trusted' };
}

/** The nodes the hook itself would run: its own, and each `node` on its PATH, as real paths. */
function knownNodes(v: Verifier): Set<string> {
  const nodes = new Set<string>();
  const own = realpath(v.node);
  if (own !== null) nodes.add(own);
  for (const dir of v.pathVariable.split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const found = realpath(path.join(dir, 'node'));
    if (found !== null) nodes.add(found);
  }
  return nodes;
}

/**
 * Null when the server's file has not changed since it started (its status change time is
 * older) and holds what the hook's own copy holds; else why not.
 */
function sameFile(theirs: string, ours: string, startedAt: number): string | null {
  let st: fs.Stats;
  try {
    st = fs.statSync(theirs);
  } catch {
    return `${theirs} is gone`;
  }
  // ctime: also moved by a rename or a chmod, which a content check alone would miss. The
  // start is known to a clock tick, plus the two clocks' drift: a few ticks of slack.
  if (st.ctimeMs > startedAt + START_SLACK_MS) return `${theirs} changed after it started`;
  if (path.resolve(theirs) === path.resolve(ours)) return null;
  const a = digest(theirs);
  const b = digest(ours);
  return a !== null && a === b ? null : `${theirs} is not the same as ${ours}`;
}

function digest(file: string): string | null {
  try {
    return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
}

/**
 * When a process started, in ms since the epoch, or null (Linux: its start in clock ticks
 * since boot, /proc/<pid>/stat; the boot from now and /proc/uptime, which are exact to a
 * tick where /proc/stat's btime is cut to the second).
 */
function startedAtMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const uptime = Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    // Clock ticks are 1/100 s on every Linux Node runs on (USER_HZ).
    return Number.isFinite(ticks) && Number.isFinite(uptime) ? Date.now() - uptime * 1000 + ticks * 10 : null;
  } catch {
    return null;
  }
}

function readNulList(file: string): string[] | null {
  try {
    return fs.readFileSync(file, 'utf8').split('\0').filter((part, i, all) => part !== '' || i < all.length - 1);
  } catch {
    return null;
  }
}

function realpath(file: string): string | null {
  try {
    return fs.realpathSync(file);
  } catch {
    return null;
  }
}
