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
  session, projectRoot: '/p', configs: [], onError: 'closed', pid: 4242, pidStart: '99', env: { HOME: '/h', ANTHROPIC_API_KEY: 'sk-x', GITHUB_TOKEN: 'g', ATEAM_ENFORCEMENT: 'on' }, ...over,
});

it('registers sessions, keeps each on the project and policy it started with, and drops the ended', () => {
  const r = createSessionRegistry(dir);
  expect(r.add(reg('s1'))).toEqual({ ok: true });
  expect(r.add(reg('s1', { pid: 5000 }))).toEqual({ ok: true });
  expect(r.get('s1')?.pid).toBe(5000);
  expect(r.add(reg('s1', { projectRoot: '/other' }))).toEqual({ ok: false, reason: 'session s1 is registered for /p; a session keeps the project and policy it started with' });
  expect(r.add(reg('s1', { onError: 'open' })).ok).toBe(false);
  expect(r.add(reg('s1', { configs: ['lax.yaml'] })).ok).toBe(false);
  expect(r.add(reg('s2', { pid: 6000 }))).toEqual({ ok: true });
  expect(r.prune((x) => x.pid !== 6000)).toEqual(['s2']);
  expect(r.list().map((x) => x.session)).toEqual(['s1']);
  expect(fs.readdirSync(dir)).toEqual(['s1.json']);
});

it('keeps registrations on disk, mode 0600, without environment variables that look like secrets', () => {
  createSessionRegistry(dir).add(reg('s1'));
  const file = path.join(dir, 's1.json');
  if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).env).toEqual({ HOME: '/h', ATEAM_ENFORCEMENT: 'on' });
  // A server started again serves it; a torn file and one under another name are no session.
  fs.writeFileSync(path.join(dir, 's2.json'), '{"session":');
  fs.writeFileSync(path.join(dir, 's3.json'), fs.readFileSync(file));
  const again = createSessionRegistry(dir);
  expect(again.list().map((x) => [x.session, x.env])).toEqual([['s1', { HOME: '/h', ATEAM_ENFORCEMENT: 'on' }]]);
});

it('takes only well-formed registrations and session ids that are plain file names', () => {
  expect(isRegistration(reg('s1'))).toBe(true);
  expect(isRegistration({ ...reg('s1'), projectRoot: 'relative' })).toBe(false);
  expect(isRegistration({ ...reg('s1'), onError: 'maybe' })).toBe(false);
  expect(isRegistration({ ...reg('s1'), pid: 0 })).toBe(false);
  expect(isRegistration({ ...reg('s1'), env: { A: 1 } })).toBe(false);
  expect(isRegistration(null)).toBe(false);
  expect(['5f0c2a7e-1b2c-4d5e-8f90-123456789abc', 'abc_1.2'].every(isSessionId)).toBe(true);
  expect(['', '../x', 'a/b', '.hidden', 'a..b', 'x'.repeat(200), 7].some(isSessionId)).toBe(false);
});
