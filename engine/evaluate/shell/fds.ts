/**
 * The shell's file descriptors, followed through redirections: which file each one holds,
 * whatever mode it was opened in. Opening `/dev/stdout`, `/dev/stdin`, `/dev/stderr`,
 * `/dev/fd/N` or `/proc/self/fd/N` reopens the file the descriptor holds, for writing if
 * asked: `echo x 1<src/a.ts >/dev/stdout` overwrites src/a.ts.
 */
import type { Arg } from './words';

/** A file a descriptor may hold: its path as written, and the folder it is relative to. */
export interface HeldFile {
  path: Arg;
  /** Absolute folder `path` is relative to; null when unknown. */
  cwd: string | null;
}

/**
 * Descriptors and the files they may hold (several after a branch: any of them). A missing
 * descriptor holds no file: a pipe, a terminal, a here-document, a device, or closed.
 * Immutable: every change returns a new table.
 */
export class FdTable {
  private constructor(
    private readonly held: ReadonlyMap<number, readonly HeldFile[]>,
    /** Files opened on a descriptor whose number the shell picks (`{var}<file`). */
    readonly unnumbered: readonly HeldFile[],
    /** The descriptors are not known at all (code run at a time that cannot be known). */
    readonly unknown: boolean,
  ) {}

  /** Standard input, output and error hold no file: Claude Code gives the shell pipes. */
  static initial(): FdTable {
    return new FdTable(new Map(), [], false);
  }

  /** A table about which nothing is known: a write through a descriptor cannot be judged. */
  static unknownTable(): FdTable {
    return new FdTable(new Map(), [], true);
  }

  /** The files descriptor `fd` may hold ([] for none). */
  get(fd: number): readonly HeldFile[] {
    return this.held.get(fd) ?? [];
  }

  /**
   * Descriptor `fd` now holds `files` ([] for none). With `merge`, it holds them as well
   * as what it held: inside a branch or a loop, the table only grows.
   * @example FdTable.initial().set(3, [{ path: 'a', cwd: '/p' }], false).get(3) // [{ path: 'a', cwd: '/p' }]
   */
  set(fd: number, files: readonly HeldFile[], merge: boolean): FdTable {
    const next = new Map(this.held);
    const all = merge ? [...this.get(fd), ...files] : [...files];
    if (all.length === 0) next.delete(fd);
    else next.set(fd, all);
    return new FdTable(next, this.unnumbered, this.unknown);
  }

  /** A file opened on a descriptor the shell numbers (`exec {fd}<file`). */
  withUnnumbered(files: readonly HeldFile[]): FdTable {
    return new FdTable(this.held, [...this.unnumbered, ...files], this.unknown);
  }

  /** Every file any descriptor may hold. */
  allFiles(): HeldFile[] {
    return [...[...this.held.values()].flat(), ...this.unnumbered];
  }

  /**
   * This table with the descriptors in `fds` put back as they are in `before` (a
   * statement's own redirections end with it; an `exec` inside it lasts).
   */
  restore(fds: Iterable<number>, before: FdTable): FdTable {
    const next = new Map(this.held);
    for (const fd of fds) {
      const old = before.held.get(fd);
      if (old) next.set(fd, old);
      else next.delete(fd);
    }
    return new FdTable(next, this.unnumbered, this.unknown);
  }

  /** The union of two tables (after walking code that may or may not have run). */
  union(other: FdTable): FdTable {
    const next = new Map(this.held);
    for (const [fd, files] of other.held) next.set(fd, [...(next.get(fd) ?? []), ...files.filter((f) => !next.get(fd)?.includes(f))]);
    const unnumbered = [...this.unnumbered, ...other.unnumbered.filter((f) => !this.unnumbered.includes(f))];
    return new FdTable(next, unnumbered, this.unknown || other.unknown);
  }

  /** True when both tables hold the same files on the same descriptors. */
  sameAs(other: FdTable): boolean {
    if (this.held.size !== other.held.size || this.unnumbered.length !== other.unnumbered.length || this.unknown !== other.unknown) return false;
    for (const [fd, files] of this.held) {
      const theirs = other.held.get(fd);
      if (!theirs || theirs.length !== files.length || files.some((f, i) => f !== theirs[i])) return false;
    }
    return true;
  }
}

/** A path that names a descriptor of the opening process, and what follows it (`/dev/fd/3/x` -> 3, '/x'). */
export interface DescriptorPath {
  fd: number;
  rest: string;
}

/**
 * The descriptor an absolute, normalized path reopens, or null when it names none:
 * `/dev/stdin|stdout|stderr`, `/dev/fd/N`, `/proc/self/fd/N`, `/proc/thread-self/fd/N`,
 * `/proc/self/task/T/fd/N`.
 * @example descriptorPath('/dev/stdout') // { fd: 1, rest: '' }
 * @example descriptorPath('/proc/self/fd/3/a.ts') // { fd: 3, rest: '/a.ts' }
 */
export function descriptorPath(absolute: string): DescriptorPath | null {
  const std = /^\/dev\/std(in|out|err)(\/.*)?$/.exec(absolute);
  if (std) return { fd: std[1] === 'in' ? 0 : std[1] === 'out' ? 1 : 2, rest: std[2] ?? '' };
  const fd = /^(?:\/dev\/fd|\/proc\/(?:self|thread-self)(?:\/task\/\d+)?\/fd)\/(\d+)(\/.*)?$/.exec(absolute);
  return fd ? { fd: Number(fd[1]), rest: fd[2] ?? '' } : null;
}

/**
 * What an absolute, normalized path under /proc means for the process that opens it:
 * its working folder (`/proc/self/cwd/...`), its root (`/proc/self/root/...`), another
 * process's entries (unknown), or nothing special (null).
 * @example procPath('/proc/self/cwd/src/a.ts') // { kind: 'cwd', rest: '/src/a.ts' }
 */
export function procPath(absolute: string): { kind: 'cwd' | 'root' | 'other-process'; rest: string } | null {
  const self = /^\/proc\/(?:self|thread-self)(?:\/task\/\d+)?\/(cwd|root)(\/.*)?$/.exec(absolute);
  if (self) return { kind: self[1] as 'cwd' | 'root', rest: self[2] ?? '' };
  const other = /^\/proc\/\d+(?:\/task\/\d+)?\/(?:cwd|root|fd)(?:\/.*)?$/.exec(absolute);
  return other ? { kind: 'other-process', rest: '' } : null;
}
