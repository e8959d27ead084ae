/**
 * What makes a cache file usable: it lives in a folder only this user can write (owned by
 * this user, not group- or world-writable, every folder above it owned by this user or
 * root and, when others may write it, sticky like /tmp), and its content matches the seal
 * it was written with. A file that fails either is reported, never used, and rebuilt.
 *
 * The seal is a check of content, not a signature: a process of the same user can write a
 * consistent file (docs/reliability.md, the threat model). It turns an edit that forgets
 * it (a `sed -i` on a cached policy) into a rebuild instead of a silent change.
 */
import * as fs from 'fs';
import * as path from 'path';

const SEAL = '//hookpolicy-seal ';
const SEAL_BYTES = Buffer.from(SEAL);
/** The seal line: SEAL, 16 hex digits, a newline. */
const SEAL_LINE_LENGTH = SEAL.length + 17;

const FNV_PRIME = 0x01000193;

/**
 * A 64-bit FNV-1a-style hash of the body's UTF-8 bytes, 32 bits at a time in the
 * machine's byte order (a cache never leaves its machine): four lanes each take every
 * fourth word, the last 0-3 words and bytes go to the first two, and the lanes are folded
 * together with the length; as 16 hex digits. A cold process runs this loop in the
 * interpreter over every cache file it writes (~100 KB after a policy edit) or reads
 * without its stamp, and one multiply per word costs about half of the two the single
 * pair of lanes took. Each step is a bijection of its lane, so a change of one word
 * always changes its lane, and the folding carries any one lane's change to the result.
 */
function contentHash(body: Buffer): string {
  // Int32Array needs a 4-byte-aligned offset; a copy from Buffer.from gets one (a fresh or pooled buffer).
  const bytes = body.byteOffset % 4 === 0 ? body : Buffer.from(body);
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  let a = 0x811c9dc5 | 0;
  let b = 0x050c5d1f;
  let c = 0x2f4a5e3b;
  let d = 0x6b1d2c47;
  const whole = words.length - (words.length % 4);
  for (let i = 0; i < whole; i += 4) {
    a = Math.imul(a ^ words[i], FNV_PRIME);
    b = Math.imul(b ^ words[i + 1], FNV_PRIME);
    c = Math.imul(c ^ words[i + 2], FNV_PRIME);
    d = Math.imul(d ^ words[i + 3], FNV_PRIME);
  }
  for (let i = whole; i < words.length; i++) a = Math.imul(a ^ words[i], FNV_PRIME);
  for (let i = words.length * 4; i < bytes.length; i++) b = Math.imul(b ^ bytes[i], FNV_PRIME);
  a = Math.imul(a ^ c, FNV_PRIME);
  b = Math.imul(b ^ d, FNV_PRIME);
  a = Math.imul(a ^ (b >>> 16) ^ bytes.length, FNV_PRIME);
  b = Math.imul(b ^ (a >>> 16), FNV_PRIME);
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/**
 * The text with its seal line in front.
 * @example sealed('{"a":1}') // '//hookpolicy-seal 3f0c...\n{"a":1}'
 */
export function sealed(body: string): string {
  return `${SEAL}${contentHash(Buffer.from(body))}\n${body}`;
}

/**
 * The body of a sealed file's bytes, or null when the seal is missing or does not match.
 * @example unsealedBytes(fs.readFileSync(file)) // '{"build":...}'
 */
export function unsealedBytes(bytes: Buffer): string | null {
  if (!hasSealLine(bytes)) return null;
  const body = bytes.subarray(SEAL_LINE_LENGTH);
  return bytes.toString('latin1', SEAL.length, SEAL_LINE_LENGTH - 1) === contentHash(body) ? body.toString('utf8') : null;
}

/**
 * The body of a sealed file's bytes without checking the seal's hash (the caller knows the
 * file is the one it checked before), or null when it has no seal line.
 * @example sealedBody(fs.readFileSync(file)) // '{"build":...}'
 */
export function sealedBody(bytes: Buffer): string | null {
  return hasSealLine(bytes) ? bytes.toString('utf8', SEAL_LINE_LENGTH) : null;
}

function hasSealLine(bytes: Buffer): boolean {
  return bytes.length >= SEAL_LINE_LENGTH && bytes.compare(SEAL_BYTES, 0, SEAL_BYTES.length, 0, SEAL_BYTES.length) === 0 && bytes[SEAL_LINE_LENGTH - 1] === 0x0a;
}

/**
 * The body of a sealed text, or null when the seal is missing or does not match.
 * @example unsealed(sealed('x')) // 'x'
 */
export function unsealed(text: string): string | null {
  return unsealedBytes(Buffer.from(text));
}

const trusted = new Map<string, string | null>();

/**
 * Why `dir` may not hold caches (another user could write them), or null when it may. A
 * folder that does not exist yet is judged by the folders above it. Remembered per process.
 * @example folderDistrust('/tmp/hookpolicy-1000') // 'it is owned by another user (uid 1001)'
 */
export function folderDistrust(dir: string): string | null {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return null;
  const known = trusted.get(dir);
  if (known !== undefined) return known;
  const verdict = judge(path.resolve(dir), process.getuid());
  trusted.set(dir, verdict);
  return verdict;
}

function judge(dir: string, uid: number): string | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch {
    const parent = path.dirname(dir);
    return parent === dir ? null : judge(parent, uid);
  }
  if (st.isSymbolicLink()) return `${dir} is a symbolic link`;
  if (!st.isDirectory()) return `${dir} is not a folder`;
  const others = (st.mode & 0o022) !== 0;
  const sticky = (st.mode & 0o1000) !== 0;
  if (st.uid !== uid && st.uid !== 0) return `${dir} is owned by another user (uid ${st.uid})`;
  if (others && !sticky) return `${dir} can be written by other users (mode ${(st.mode & 0o7777).toString(8)})`;
  // The folder that holds the cache files themselves must be this user's alone.
  return parentsTrusted(dir, uid);
}

function parentsTrusted(dir: string, uid: number): string | null {
  const parent = path.dirname(dir);
  if (parent === dir) return null;
  try {
    const st = fs.statSync(parent);
    const others = (st.mode & 0o022) !== 0;
    if (st.uid !== uid && st.uid !== 0) return `${parent} is owned by another user (uid ${st.uid})`;
    if (others && (st.mode & 0o1000) === 0) return `${parent} can be written by other users (mode ${(st.mode & 0o7777).toString(8)})`;
  } catch {
    return null;
  }
  return parentsTrusted(parent, uid);
}

/**
 * Why the folder that holds cache files is not this user's alone, or null. Stricter than
 * folderDistrust for the folder itself: owned by this user, writable by nobody else.
 * @example cacheFolderDistrust('/tmp') // '/tmp is owned by another user (uid 0)'
 */
export function cacheFolderDistrust(dir: string): string | null {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return null;
  try {
    const st = fs.lstatSync(dir);
    if (st.isDirectory() && !st.isSymbolicLink()) {
      if (st.uid !== process.getuid()) return `${dir} is owned by another user (uid ${st.uid})`;
      if ((st.mode & 0o022) !== 0) return `${dir} can be written by other users (mode ${(st.mode & 0o7777).toString(8)})`;
    }
  } catch {
    // Not there yet: made with mode 0700 when first written.
  }
  return folderDistrust(dir);
}

/** Forgets what was judged (tests change folders under a running process). */
export function forgetFolderVerdicts(): void {
  trusted.clear();
}
