import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { forgetFolderVerdicts } from '../cache/cache-trust';
import { portDir, proofOf, sameProof, serveState, serveToken } from './state';

let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-serve-state-')));
  forgetFolderVerdicts();
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const posixOnly = process.platform === 'win32' ? it.skip : it;

posixOnly('makes <cache>/serve with mode 0700, and one token of 64 hex digits with mode 0600', () => {
  const state = serveState({ HOOKPOLICY_CACHE_DIR: path.join(tmp, 'cache'), HOME: tmp, TMPDIR: tmp });
  expect(state).toEqual({ dir: path.join(tmp, 'cache', 'serve'), problem: null });
  expect(fs.statSync(state.dir!).mode & 0o777).toBe(0o700);
  const token = serveToken(state.dir!);
  expect(token).toMatch(/^[0-9a-f]{64}$/);
  expect(fs.statSync(path.join(state.dir!, 'token')).mode & 0o777).toBe(0o600);
  expect(serveToken(state.dir!)).toBe(token);
  expect(fs.readdirSync(state.dir!)).toEqual(['token']);
  expect(portDir(state.dir!, 8707)).toBe(path.join(state.dir!, 'port-8707'));
});

posixOnly('skips a cache folder others can write, and says why when none is left', () => {
  const open = path.join(tmp, 'open');
  fs.mkdirSync(open, { mode: 0o777 });
  fs.chmodSync(open, 0o777);
  const state = serveState({ HOOKPOLICY_CACHE_DIR: open, HOME: tmp, TMPDIR: path.join(tmp, 'tmp') });
  expect(state.dir).toBe(path.join(tmp, 'tmp', `hookpolicy-${process.getuid!()}`, 'serve'));
  forgetFolderVerdicts();
  const none = serveState({ HOOKPOLICY_CACHE_DIR: open, HOME: tmp, TMPDIR: open });
  expect(none.dir).toBeNull();
  expect(none.problem).toMatch(/^no folder only this user can write for the policy server's token \(.*can be written by other users/);
});

posixOnly('refuses a token file that is a link, has a second name or can be read by others', () => {
  const dir = path.join(tmp, 'serve');
  fs.mkdirSync(dir, { mode: 0o700 });
  const token = serveToken(dir);
  fs.chmodSync(path.join(dir, 'token'), 0o644);
  expect(() => serveToken(dir)).toThrow(/not a token file this user alone can read/);
  fs.chmodSync(path.join(dir, 'token'), 0o600);
  fs.linkSync(path.join(dir, 'token'), path.join(tmp, 'second-name'));
  expect(() => serveToken(dir)).toThrow(/not a token file this user alone can read/);
  fs.rmSync(path.join(tmp, 'second-name'));
  expect(serveToken(dir)).toBe(token);
  fs.renameSync(path.join(dir, 'token'), path.join(tmp, 'elsewhere'));
  fs.symlinkSync(path.join(tmp, 'elsewhere'), path.join(dir, 'token'));
  expect(() => serveToken(dir)).toThrow(/cannot be opened as the policy server's token/);
});

it('proofs depend on the token, the purpose and the data', () => {
  const a = proofOf('k1', 'server', 'n');
  expect(a).toMatch(/^[0-9a-f]{64}$/);
  expect(sameProof(a, proofOf('k1', 'server', 'n'))).toBe(true);
  expect(sameProof(a, proofOf('k2', 'server', 'n'))).toBe(false);
  expect(sameProof(a, proofOf('k1', 'register', 'n'))).toBe(false);
  expect(sameProof(a, proofOf('k1', 'server', 'm'))).toBe(false);
  expect(sameProof(undefined, a)).toBe(false);
  expect(sameProof('short', a)).toBe(false);
});
