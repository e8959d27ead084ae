import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createSessionRegistry, isRegistration, isSessionId, type SessionRegistration } from './registry';

let dir: string;
beforeEach(() => {
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-registry-')), 'sessions');
});
afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

const reg = (session: string, over: Partial<SessionRegistration> = {}): SessionRegistration => ({
  session, projectRoot: '/p', configs: [], onError: 'closed', pid: 4242, pidStart: '99', env: { HOME: '/h', ANTHROPIC_API_KEY: 'sk-x', GITHUB_TOKEN: 'g', ATEAM_ENFORCEMENT: 'on' }, install: '/p/node_modules/hookpolicy', ...over,
});
const running = () => true;
const ended = () => false;

it('keeps the first registration of a session, and its environment, while its Claude Code runs, and drops the ended', () => {
  const r = createSessionRegistry(dir);
  const fresh = { ok: true, envKept: false };
  expect(r.add(reg('s1'), running)).toEqual(fresh);
  expect(r.add(reg('s1'), running)).toEqual(fresh);
  const refused = (why: string) => ({ ok: false, reason: `session s1 is registered ${why}; a session keeps the project, policy, install and Claude Code it started with` });
  expect(r.add(reg('s1', { projectRoot: '/other' }), running)).toEqual(refused('for /p'));
  expect(r.add(reg('s1', { onError: 'open' }), running)).toEqual(refused('for /p with other policy files or on_error'));
  expect(r.add(reg('s1', { configs: ['lax.yaml'] }), running)).toEqual(refused('for /p with other policy files or on_error'));
  expect(r.add(reg('s1', { install: '/tmp/evil' }), running)).toEqual(refused('with the install in /p/node_modules/hookpolicy'));
  expect(r.add(reg('s1', { pid: 5000 }), running)).toEqual(refused('by Claude Code pid 4242, which still runs'));
  // The confined agent registering its own session again, with its lanes switched off: the session keeps its environment.
  expect(r.add(reg('s1', { env: { ...reg('s1').env, ATEAM_ENFORCEMENT: 'off' } }), running)).toEqual({ ok: true, envKept: true });
  expect(r.add(reg('s1', { env: { HOME: '/h' } }), running)).toEqual({ ok: true, envKept: true });
  expect(r.get('s1')).toEqual(reg('s1'));
  // The variables of one hook event are no part of it (SessionStart's CLAUDE_ENV_FILE, a tool event's CLAUDE_EFFORT).
  expect(r.add(reg('s1', { env: { ...reg('s1').env, CLAUDE_ENV_FILE: '/h/env.sh', CLAUDE_EFFORT: 'high' } }), running)).toEqual(fresh);
  expect(r.get('s1')).toEqual(reg('s1'));
  // Its Claude Code gone, the session may be resumed by another, with its own environment.
  expect(r.add(reg('s1', { pid: 5000, env: { HOME: '/h2' } }), ended)).toEqual(fresh);
  expect(r.get('s1')?.pid).toBe(5000);
  expect(r.add(reg('s2', { pid: 6000 }), running)).toEqual(fresh);
  expect(r.prune((x) => x.pid !== 6000)).toEqual(['s2']);
  expect(r.list().map((x) => x.session)).toEqual(['s1']);
  expect(fs.readdirSync(dir)).toEqual(['s1.json']);
});

it('keeps registrations on disk, mode 0600, without environment variables that look like secrets', () => {
  createSessionRegistry(dir).add(reg('s1'), running);
  const file = path.join(dir, 's1.json');
  if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).env).toEqual({ HOME: '/h', ATEAM_ENFORCEMENT: 'on' });
  // A server started again serves it; a torn file, one under another name, one without the digest and a link are no session.
  fs.writeFileSync(path.join(dir, 's2.json'), '{"session":');
  fs.writeFileSync(path.join(dir, 's3.json'), fs.readFileSync(file));
  const { envDigest: _digest, ...bare } = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.writeFileSync(path.join(dir, 's4.json'), JSON.stringify({ ...bare, session: 's4' }));
  fs.symlinkSync(file, path.join(dir, 's5.json'));
  const again = createSessionRegistry(dir);
  expect(again.list().map((x) => [x.session, x.env])).toEqual([['s1', { HOME: '/h', ATEAM_ENFORCEMENT: 'on' }]]);
  // Its next registration gives the secrets back only when the whole environment is what it was.
  expect(again.add(reg('s1', { env: { HOME: '/h', ANTHROPIC_API_KEY: 'sk-other', GITHUB_TOKEN: 'g', ATEAM_ENFORCEMENT: 'on' } }), running)).toEqual({ ok: true, envKept: true });
  expect(again.add(reg('s1', { env: { HOME: '/h', ATEAM_ENFORCEMENT: 'off' } }), running)).toEqual({ ok: true, envKept: true });
  expect(again.get('s1')?.env).toEqual({ HOME: '/h', ATEAM_ENFORCEMENT: 'on' });
  expect(again.add(reg('s1', { env: { ...reg('s1').env, CLAUDE_ENV_FILE: '/x' } }), running)).toEqual({ ok: true, envKept: false });
  expect(again.get('s1')?.env).toEqual(reg('s1').env);
});

it('takes only well-formed registrations and session ids that are plain file names', () => {
  expect(isRegistration(reg('s1'))).toBe(true);
  expect(isRegistration({ ...reg('s1'), projectRoot: 'relative' })).toBe(false);
  expect(isRegistration({ ...reg('s1'), onError: 'maybe' })).toBe(false);
  expect(isRegistration({ ...reg('s1'), pid: 0 })).toBe(false);
  expect(isRegistration({ ...reg('s1'), env: { A: 1 } })).toBe(false);
  expect(isRegistration({ ...reg('s1'), install: 'node_modules/hookpolicy' })).toBe(false);
  expect(isRegistration({ ...reg('s1'), install: undefined })).toBe(false);
  expect(isRegistration(null)).toBe(false);
  expect(['5f0c2a7e-1b2c-4d5e-8f90-123456789abc', 'abc_1.2'].every(isSessionId)).toBe(true);
  expect(['', '../x', 'a/b', '.hidden', 'a..b', 'x'.repeat(200), 7].some(isSessionId)).toBe(false);
});
