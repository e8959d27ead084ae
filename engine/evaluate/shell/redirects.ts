/**
 * One redirection and the shell's descriptors: what it writes, and what each descriptor
 * holds after it. `N>file`, `N<file`, `N<>file` open a file on N (whatever the mode, a later
 * `/dev/fd/N` reopens it); `N>&M` and `N<&M` duplicate, `N>&M-` moves, `N>&-` closes;
 * `{var}>file` opens a descriptor the shell numbers itself. Opening `/dev/stdout` or the
 * like duplicates the descriptor it names.
 */
import { absolutePath } from '../paths';
import { descriptorPath, procPath, type FdTable, type HeldFile } from './fds';
import type { Arg } from './words';

const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const HERE_REDIRECTS = new Set(['<<', '<<-', '<<<']);

export interface RedirectInput {
  /** The operator's name ('>', '<&', '<<'...). */
  op: string;
  /** The descriptor written before the operator: '' when none, `{var}` for one the shell numbers. */
  n: string;
  /** The word's static text, or null. */
  target: () => Arg;
  cwd: string | null;
  fds: FdTable;
  /** Inside a branch or a loop: descriptors only gain files. */
  merge: boolean;
}

export interface RedirectResult {
  fds: FdTable;
  /** Descriptors it set (put back when the statement ends). */
  touched: number[];
  /** The file it writes, judged with the descriptors as they were before it. */
  write?: Arg;
  /** It feeds standard input from a here-document ('here'), or from a file ('file'). */
  stdin?: 'here' | 'file';
  unsure?: string;
}

/**
 * What one redirection does to the descriptors, and what it writes.
 * @example applyRedirect({ op: '<', n: '3', target: () => 'src/a.ts', cwd: '/p', fds: FdTable.initial(), merge: false }).fds.get(3)
 *   // [{ path: '/p/src/a.ts', cwd: '/p' }]
 */
export function applyRedirect(input: RedirectInput): RedirectResult {
  const { op, n } = input;
  const named = n.startsWith('{');
  const fd = n !== '' && !named ? Number(n) : op.startsWith('<') ? 0 : 1;
  const result: RedirectResult = { fds: input.fds, touched: [] };
  const hold = (fds: number[], files: HeldFile[]) => {
    if (named) return void (result.fds = result.fds.withUnnumbered(files));
    for (const d of fds) {
      result.fds = result.fds.set(d, files, input.merge);
      result.touched.push(d);
    }
  };
  if (WRITE_REDIRECTS.has(op)) {
    result.write = input.target();
    hold(op.startsWith('&') ? [1, 2] : [fd], heldBy(result.write, input.cwd, input.fds));
  } else if (op === '>&' || op === '<&') {
    const word = input.target();
    if (word === null) {
      if (op === '>&') result.unsure = 'a >& redirection target is not static';
      hold([fd], input.fds.allFiles());
    } else if (/^\d+-?$/.test(word)) {
      const from = Number.parseInt(word, 10);
      hold([fd], [...input.fds.get(from)]);
      if (word.endsWith('-')) hold([from], []);
    } else if (word === '-') {
      hold([fd], []);
    } else if (op === '>&') {
      // `>& file` writes the file, on both outputs when no descriptor is named.
      result.write = word;
      hold(n === '' ? [1, 2] : [fd], heldBy(word, input.cwd, input.fds));
    }
  } else if (HERE_REDIRECTS.has(op)) {
    if (fd === 0) result.stdin = 'here';
    hold([fd], []);
  } else if (op === '<') {
    if (fd === 0) result.stdin = 'file';
    hold([fd], heldBy(input.target(), input.cwd, input.fds));
  }
  return result;
}

/**
 * What a descriptor opened on `path` holds: the file, or for `/dev/stdout`, `/dev/fd/N`
 * and the like, what that descriptor holds; for `/proc/self/cwd/...` the file in `cwd`.
 * @example heldBy('/dev/fd/3', '/p', table) // what descriptor 3 of `table` holds
 */
export function heldBy(path: Arg, cwd: string | null, fds: FdTable): HeldFile[] {
  if (path === null || (cwd === null && !path.startsWith('/'))) return [{ path, cwd }];
  const absolute = absolutePath(path, cwd ?? '/');
  const via = descriptorPath(absolute);
  if (via) {
    const files = fds.get(via.fd);
    const from = files.length > 0 || fds.unknown ? files : fds.unnumbered;
    return from.map((f) => ({ path: f.path === null ? null : `${f.path}${via.rest}`, cwd: f.cwd }));
  }
  const proc = procPath(absolute);
  if (proc?.kind === 'cwd') return [{ path: cwd === null ? null : `${cwd}${proc.rest}`, cwd }];
  return [{ path: absolute, cwd }];
}
