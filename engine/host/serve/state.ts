/**
 * Where the policy server keeps what must stay this user's: a folder under the first cache
 * folder only this user can write (`<cache>/serve`, mode 0700, judged as the policy cache
 * judges its own), holding
 * - `token`: 32 random bytes in hex, mode 0600, made once per user. The server proves it
 *   knows the token before anything trusts it, and signs nothing with it that a listener
 *   could replay; the token itself never travels.
 * - `port-<N>/sessions/<id>.json`: the sessions registered with the server on port N, so
 *   that a server started again serves them as before.
 * - `port-<N>/server.log`: what the server printed.
 * The cache folders are hookpolicy's own files, so self-protection denies every agent a
 * write there (engine/self-protection.ts).
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { cacheDirectories, cacheFolderDistrust } from '../cache';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL } = fs.constants;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** The state folder, or why there is none this user alone can write. */
export type ServeState = { dir: string; problem: null } | { dir: null; problem: string };

/**
 * The server's state folder, made with mode 0700 when missing.
 * @example serveState(process.env) // { dir: '/home/me/.cache/hookpolicy/serve', problem: null }
 */
export function serveState(env: Readonly<Record<string, string | undefined>>): ServeState {
  const problems: string[] = [];
  for (const dir of cacheDirectories(env)) {
    const distrust = cacheFolderDistrust(dir);
    if (distrust !== null) {
      problems.push(distrust);
      continue;
    }
    const state = path.join(dir, 'serve');
    try {
      fs.mkdirSync(state, { recursive: true, mode: 0o700 });
    } catch (e) {
      problems.push(`${state}: ${(e as Error).message}`);
      continue;
    }
    const again = cacheFolderDistrust(dir) ?? cacheFolderDistrust(state) ?? privateProblem(state);
    if (again === null) return { dir: state, problem: null };
    problems.push(again);
  }
  return { dir: null, problem: `no folder only this user can write for the policy server's token (${problems.join('; ')})` };
}

/** The folder itself must be readable by this user alone: the token is in it. */
function privateProblem(dir: string): string | null {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return null;
  const st = fs.lstatSync(dir);
  if ((st.mode & 0o077) !== 0) {
    fs.chmodSync(dir, 0o700);
    if ((fs.lstatSync(dir).mode & 0o077) !== 0) return `${dir} can be read by other users (mode ${(st.mode & 0o7777).toString(8)})`;
  }
  return null;
}

/**
 * This user's token (64 hex digits), made on first use. A token file that is a link,
 * has more than one name, is not this user's or can be read by others is never used.
 * @example serveToken('/home/me/.cache/hookpolicy/serve') // 'a3f1...'
 */
export function serveToken(stateDir: string): string {
  const file = path.join(stateDir, 'token');
  const existing = readToken(file);
  if (existing !== null) return existing;
  const token = crypto.randomBytes(32).toString('hex');
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  const fd = fs.openSync(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    fs.writeSync(fd, `${token}\n`);
  } finally {
    fs.closeSync(fd);
  }
  try {
    // link() fails when another process made the token first: then theirs is the token.
    fs.linkSync(temporary, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  const token2 = readToken(file);
  if (token2 === null) throw new Error(`${file} is not a token file this user alone can read`);
  return token2;
}

function readToken(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`${file} cannot be opened as the policy server's token (${(e as NodeJS.ErrnoException).code})`);
  }
  try {
    const st = fs.fstatSync(fd);
    const mine = typeof process.getuid !== 'function' || st.uid === process.getuid();
    if (!st.isFile() || st.nlink !== 1 || !mine || (process.platform !== 'win32' && (st.mode & 0o077) !== 0)) {
      throw new Error(`${file} is not a token file this user alone can read (a link, another user's, or readable by others)`);
    }
    const text = fs.readFileSync(fd, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${file} does not hold a token`);
    return text;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The folder of the server on `port`: its registered sessions and its log.
 * @example portDir('/home/me/.cache/hookpolicy/serve', 8707) // '/home/me/.cache/hookpolicy/serve/port-8707'
 */
export function portDir(stateDir: string, port: number): string {
  return path.join(stateDir, `port-${port}`);
}

/**
 * A keyed proof: HMAC-SHA256 of `purpose` and `data` under the token, in hex. A proof for
 * one purpose is never valid for another.
 * @example proofOf(token, 'server', nonce) // '5be0...'
 */
export function proofOf(token: string, purpose: string, data: string): string {
  return crypto.createHmac('sha256', token).update(`${purpose}\n${data}`).digest('hex');
}

/** Compares two proofs in constant time. */
export function sameProof(a: unknown, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  return crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
