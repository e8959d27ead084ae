/**
 * The sessions a policy server serves. A SessionStart command hook (`policy serve
 * --ensure`) registers each Claude Code session: its id, its project, the policy files
 * and on_error its entries name, the pid of its Claude Code and the environment a rule may
 * read. An http hook's event carries only the session id, so this is how the server knows
 * which policy answers it, and the install whose code answers it.
 *
 * The first registration of a session holds while its Claude Code runs: a second one
 * with another project, policy, on_error, install or Claude Code is refused, and one with
 * another environment is taken without it (the session keeps the environment it started
 * with), so nothing (the confined agent running `policy serve --ensure` itself with
 * `ATEAM_ENFORCEMENT=off`, say) can move a running session to a laxer policy or another
 * environment. Claude Code gives each hook a few variables of its own event
 * (`CLAUDE_ENV_FILE` at SessionStart, `CLAUDE_EFFORT` at tool events): those are no part
 * of a session's environment. Once that Claude Code has exited, the id may be registered
 * again (a session resumed in a new process). A session whose Claude Code has exited is
 * dropped.
 *
 * Each registration is also a file (`<dir>/<id>.json`, mode 0600), so a server started
 * again serves the sessions that are still running. Environment variables whose names
 * look like secrets are kept in memory only; the file keeps a salted digest of the whole
 * environment, so that the session's next registration (it registers at every prompt)
 * gives them back only when they are what they were.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

export interface SessionRegistration {
  session: string;
  /** Absolute POSIX project root (the session's CLAUDE_PROJECT_DIR). */
  projectRoot: string;
  /** --config files of the session's entries, as written there ([] = discovery). */
  configs: string[];
  onError: 'open' | 'closed' | null;
  /** Claude Code's pid, and its start time where /proc tells it. */
  pid: number;
  pidStart: string | null;
  /** The environment of the session's hooks. */
  env: Record<string, string>;
  /**
   * The hookpolicy package folder (a real, absolute path) whose `policy serve --ensure`
   * registered the session: its events are evaluated by that install's code, packs and
   * packages, as its command hooks would be.
   */
  install: string;
}

/** A registration read back from its file: its environment lacks the secrets, which `envDigest` vouches for. */
interface Held {
  registration: SessionRegistration;
  /** Set when the environment is incomplete (read from a file): the salted digest of the whole one. */
  envDigest: { salt: string; digest: string } | null;
}

export interface SessionRegistry {
  /**
   * Registers a session; refused while the id is registered for another project, policy,
   * install or Claude Code that `alive` says still runs. `envKept`: the session was
   * registered with another environment, which it keeps.
   */
  add(registration: SessionRegistration, alive: (r: SessionRegistration) => boolean): { ok: true; envKept: boolean } | { ok: false; reason: string };
  get(session: string): SessionRegistration | undefined;
  /** Drops the sessions whose Claude Code is gone; returns their ids. */
  prune(alive: (r: SessionRegistration) => boolean): string[];
  list(): SessionRegistration[];
}

const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|(^|_)KEY($|_)|API_?KEY|PRIVATE|COOKIE|AUTH/i;

/** A session id as a file name: Claude Code's are UUIDs; anything else is refused. */
export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(value) && !value.includes('..');
}

/**
 * @example const r = createSessionRegistry('/home/me/.cache/hookpolicy/serve/port-8707/sessions');
 *   r.add(registration) // { ok: true }
 */
export function createSessionRegistry(dir: string | null): SessionRegistry {
  const sessions = new Map<string, Held>();
  if (dir) for (const held of readAll(dir)) sessions.set(held.registration.session, held);

  return {
    add(registration, alive) {
      const next = { ...registration, env: sessionEnv(registration.env) };
      const held = sessions.get(next.session);
      if (held && alive(held.registration)) {
        const difference = differs(held.registration, next);
        if (difference !== null) {
          return { ok: false, reason: `session ${next.session} is registered ${difference}; a session keeps the project, policy, install and Claude Code it started with` };
        }
        if (!sameEnv(held, next.env)) return { ok: true, envKept: true };
      }
      sessions.set(next.session, { registration: next, envDigest: null });
      if (dir) write(dir, next);
      return { ok: true, envKept: false };
    },
    get: (session) => sessions.get(session)?.registration,
    prune(alive) {
      const gone: string[] = [];
      for (const { registration: r } of sessions.values()) {
        if (alive(r)) continue;
        sessions.delete(r.session);
        gone.push(r.session);
        if (dir) fs.rmSync(path.join(dir, `${r.session}.json`), { force: true });
      }
      return gone;
    },
    list: () => [...sessions.values()].map((h) => h.registration),
  };
}

/** How `next` differs from what is held, its environment aside (as words after "registered"), or null. */
function differs(r: SessionRegistration, next: SessionRegistration): string | null {
  if (r.projectRoot !== next.projectRoot) return `for ${r.projectRoot}`;
  if (r.onError !== next.onError || JSON.stringify(r.configs) !== JSON.stringify(next.configs)) return `for ${r.projectRoot} with other policy files or on_error`;
  if (r.install !== next.install) return `with the install in ${r.install}`;
  if (r.pid !== next.pid || r.pidStart !== next.pidStart) return `by Claude Code pid ${r.pid}, which still runs`;
  return null;
}

/** Whether `env` is the held session's environment (for one read back from its file: the one its digest vouches for). */
function sameEnv(held: Held, env: Record<string, string>): boolean {
  return held.envDigest === null
    ? sameEntries(held.registration.env, env)
    : envDigest(env, held.envDigest.salt) === held.envDigest.digest;
}

/** Variables Claude Code sets for one hook event, not for the session. */
const PER_EVENT = new Set(['CLAUDE_ENV_FILE', 'CLAUDE_EFFORT']);

/** A hook's environment without the variables of its own event. */
function sessionEnv(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !PER_EVENT.has(k)));
}

function sameEntries(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/** SHA-256 of the salt and the environment's entries in name order. */
function envDigest(env: Record<string, string>, salt: string): string {
  const hash = crypto.createHash('sha256').update(salt);
  for (const key of Object.keys(env).sort()) hash.update(`\0${key}=${env[key]}`);
  return hash.digest('hex');
}

function write(dir: string, r: SessionRegistration): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const env = Object.fromEntries(Object.entries(r.env).filter(([k]) => !SECRET_NAME.test(k)));
    const salt = crypto.randomBytes(16).toString('hex');
    const file = path.join(dir, `${r.session}.json`);
    const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify({ ...r, env, envDigest: { salt, digest: envDigest(r.env, salt) } }), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, file);
  } catch {
    // Only a server started again needs the file; this one holds the session in memory.
  }
}

function readAll(dir: string): Held[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: Held[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      const { envDigest: digest, ...r } = JSON.parse(readRegular(path.join(dir, name))) as SessionRegistration & { envDigest?: { salt?: unknown; digest?: unknown } };
      const held = typeof digest?.salt === 'string' && typeof digest.digest === 'string' ? { salt: digest.salt, digest: digest.digest } : null;
      // A file without the digest cannot vouch for the environment it leaves out: no session.
      if (isRegistration(r) && held && `${r.session}.json` === name) out.push({ registration: r, envDigest: held });
    } catch {
      // A torn or foreign file is no session.
    }
  }
  return out;
}

/** A registration file's text, when it is a regular file of a sane size (never a link, a FIFO or a device). */
function readRegular(file: string): string {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > 1024 * 1024) throw new Error(`${file} is not a registration`);
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * True for a well-formed registration (as received over HTTP or read back from a file).
 * @example isRegistration({ session: 'abc', projectRoot: '/p', configs: [], onError: null, pid: 12, pidStart: null, env: {}, install: '/p/node_modules/hookpolicy' }) // true
 */
export function isRegistration(value: unknown): value is SessionRegistration {
  if (!value || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  return isSessionId(r.session)
    && typeof r.projectRoot === 'string' && /^([A-Za-z]:)?\//.test(r.projectRoot)
    && typeof r.install === 'string' && /^([A-Za-z]:)?\//.test(r.install)
    && Array.isArray(r.configs) && r.configs.every((c) => typeof c === 'string')
    && (r.onError === 'open' || r.onError === 'closed' || r.onError === null)
    && Number.isInteger(r.pid) && (r.pid as number) > 0
    && (r.pidStart === null || typeof r.pidStart === 'string')
    && !!r.env && typeof r.env === 'object' && Object.values(r.env as object).every((v) => typeof v === 'string');
}
