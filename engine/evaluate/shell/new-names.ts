/**
 * The second names a command makes, and the writes that go through them. A hard link or a
 * move gives a file a new name; `ln -s` and `cp -s` make a symlink whose text is read from
 * the link's own folder; a copy that keeps links (`cp -P`, `cp -a`, `mv`) carries a symlink's
 * text to a place where it may lead somewhere else (`l -> ../.claude/x` moved one folder
 * deeper leads to `.claude/x`). What a new name leads to is named again (a write for the
 * guard: making a second name of its file lets a later write change it), and a write to a
 * path under a new name, anywhere in the same command, writes what that name leads to.
 */
import { absolutePath } from '../paths';

/** One new name a command makes. */
export interface NewName {
  /** Absolute path of the new name. */
  dest: string;
  kind: 'same' | 'symlink' | 'keeps';
  /** `same`, `keeps`: the absolute source; `symlink`: the link's text. */
  source: string;
  /** The write that made it: its own written paths are not through it. */
  by: number;
}

/** The text of the symlink at an absolute path, or null when it is no symlink. */
export type ReadLink = (absolute: string) => string | null;

/** How far one text is followed through the names a command makes (a copy of a copy of a link). */
const MAX_DEPTH = 4;

/**
 * Where a symlink with `text` at `link` (absolute) leads: the text read from the link's folder.
 * @example linkTarget('../.claude/policies.yaml', '/p/src/l') // '/p/.claude/policies.yaml'
 */
export function linkTarget(text: string, link: string): string {
  return absolutePath(text, link.slice(0, link.lastIndexOf('/')) || '/');
}

/** The part of `path` below `folder` ('' for the folder itself), or null when it is not under it. */
function below(path: string, folder: string): string | null {
  if (path === folder) return '';
  const base = folder.endsWith('/') ? folder : `${folder}/`;
  return path.startsWith(base) ? path.slice(base.length) : null;
}

function join(base: string, rest: string): string {
  return rest === '' ? base : `${base.replace(/\/+$/, '')}/${rest}`;
}

export class NewNames {
  readonly names: NewName[] = [];
  /** The texts found at a path, while no name is added. */
  private readonly texts = new Map<string, string[]>();

  constructor(private readonly readLink: ReadLink | undefined) {}

  add(name: NewName): void {
    this.names.push(name);
    this.texts.clear();
  }

  /**
   * What a new name gives a second name to: the file it is (a hard link, a move), or what a
   * symlink it is or carries leads to from where it lands. A moved or hard-linked symlink
   * that still leads where it did names nothing new.
   * @example names.namedBy({ dest: '/p/src/l', kind: 'keeps', source: '/p/l', by: 0 }) // ['/p/.claude/x'] for l -> ../.claude/x
   */
  namedBy(name: NewName): string[] {
    if (name.kind === 'symlink') return [linkTarget(name.source, name.dest)];
    const out = name.kind === 'same' ? [name.source] : [];
    for (const text of this.textsAt(name.source, 0)) {
      const there = linkTarget(text, name.dest);
      if (name.kind === 'keeps' || there !== linkTarget(text, name.source)) out.push(there);
    }
    return out;
  }

  /**
   * The paths a write to `path` (absolute) by the writes `by` also writes through the names
   * made by other writes of the command: the file a new name is, or where a symlink on the
   * way leads.
   * @example names.through('/p/src/l', new Set([1])) // ['/p/.claude/x'] after `mv l src/l` (write 0) for l -> ../.claude/x
   */
  through(path: string, by: ReadonlySet<number>): string[] {
    const out: string[] = [];
    for (const name of this.names) {
      if (by.size === 1 && by.has(name.by)) continue;
      const rel = below(path, name.dest);
      if (rel === null) continue;
      if (name.kind === 'symlink') {
        out.push(join(linkTarget(name.source, name.dest), rel));
        continue;
      }
      if (name.kind === 'same') out.push(join(name.source, rel));
      // The first symlink on the way below the new name, carried from the source.
      const segments = rel === '' ? [] : rel.split('/');
      for (let k = 0; k <= segments.length; k++) {
        const prefix = segments.slice(0, k).join('/');
        const texts = this.textsAt(join(name.source, prefix), 0);
        if (texts.length === 0) continue;
        const rest = segments.slice(k).join('/');
        for (const text of texts) out.push(join(linkTarget(text, join(name.dest, prefix)), rest));
        break;
      }
    }
    return out;
  }

  /** The texts of the symlink at `path`: on disk now, and as the command's earlier names put one there. */
  private textsAt(path: string, depth: number): string[] {
    const key = `${depth}\0${path}`;
    let found = this.texts.get(key);
    if (found === undefined) this.texts.set(key, (found = this.findTexts(path, depth)));
    return found;
  }

  private findTexts(path: string, depth: number): string[] {
    const onDisk = this.readLink?.(path) ?? null;
    const out = onDisk === null ? [] : [onDisk];
    if (depth >= MAX_DEPTH) return out;
    for (const name of this.names) {
      const rel = below(path, name.dest);
      if (rel === null) continue;
      if (name.kind === 'symlink') {
        if (rel === '') out.push(name.source);
      } else out.push(...this.textsAt(join(name.source, rel), depth + 1));
    }
    return [...new Set(out)];
  }
}
