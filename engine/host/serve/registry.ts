/**
 * The sessions a policy server serves. A SessionStart command hook (`policy serve
 * --ensure`) registers each Claude Code session: its id, its project, the policy files
 * and on_error its entries name, the pid of its Claude Code and the environment a rule may
 * read. An http hook's event carries only the session id, so this is how the server knows
 * which policy answers it. A session keeps its project for good: a second registration of
 * the same id for another project is refused, so nothing can move a running session to a
 * laxer policy. A session whose Claude Code has exited is dropped.
 *
 * Each registration is also a file (`<dir>/<id>.json`, mode 0600), so a server started
 * again serves the sessions that are still running. Environment variables whose names
 * look like secrets are kept in memory only.
 */
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
}

export interface SessionRegistry {
  /** Registers a session; false when the id is registered for another project or policy. */
  add(registration: SessionRegistration): { ok: true } | { ok: false; reason: string };
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
  const sessions = new Map<string, SessionRegistration>();
  if (dir) for (const r of readAll(dir)) sessions.set(r.session, r);

  const sameScope = (a: SessionRegistration, b: SessionRegistration) => a.projectRoot === b.projectRoot
    && a.onError === b.onError && JSON.stringify(a.configs) === JSON.stringify(b.configs);

  return {
    add(registration) {
      const held = sessions.get(registration.session);
      if (held && !sameScope(held, registration)) {
        return { ok: false, reason: `session ${registration.session} is registered for ${held.projectRoot}; a session keeps the project and policy it started with` };
      }
      sessions.set(registration.session, registration);
      if (dir) write(dir, registration);
      return { ok: true };
    },
    get: (session) => sessions.get(session),
    prune(alive) {
      const gone: string[] = [];
      for (const r of sessions.values()) {
        if (alive(r)) continue;
        sessions.delete(r.session);
        gone.push(r.session);
        if (dir) fs.rmSync(path.join(dir, `${r.session}.json`), { force: true });
      }
      return gone;
    },
    list: () => [...sessions.values()],
  };
}

function write(dir: string, r: SessionRegistration): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const env = Object.fromEntries(Object.entries(r.env).filter(([k]) => !SECRET_NAME.test(k)));
    const file = path.join(dir, `${r.session}.json`);
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify({ ...r, env }), { mode: 0o600 });
    fs.renameSync(temporary, file);
  } catch {
    // Only a server started again needs the file; this one holds the session in memory.
  }
}

function readAll(dir: string): SessionRegistration[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: SessionRegistration[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      const r = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as SessionRegistration;
      if (isRegistration(r) && `${r.session}.json` === name) out.push(r);
    } catch {
      // A torn or foreign file is no session.
    }
  }
  return out;
}

/**
 * True for a well-formed registration (as received over HTTP or read back from a file).
 * @example isRegistration({ session: 'abc', projectRoot: '/p', configs: [], onError: null, pid: 12, pidStart: null, env: {} }) // true
 */
export function isRegistration(value: unknown): value is SessionRegistration {
  if (!value || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  return isSessionId(r.session)
    && typeof r.projectRoot === 'string' && /^([A-Za-z]:)?\//.test(r.projectRoot)
    && Array.isArray(r.configs) && r.configs.every((c) => typeof c === 'string')
    && (r.onError === 'open' || r.onError === 'closed' || r.onError === null)
    && Number.isInteger(r.pid) && (r.pid as number) > 0
    && (r.pidStart === null || typeof r.pidStart === 'string')
    && !!r.env && typeof r.env === 'object' && Object.values(r.env as object).every((v) => typeof v === 'string');
}
