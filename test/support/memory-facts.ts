/**
 * An in-memory Facts for tests: files given by project-relative path, folders implied,
 * and an optional symlink table.
 */
import { posix } from 'node:path';
import picomatch from 'picomatch';
import type { EvaluationContext, Facts, FileFact } from '../../engine/types';

export interface MemoryFile {
  content?: string;
  /** Defaults to the UTF-8 byte length of content. */
  size?: number;
  mtimeMs?: number;
}

/**
 * Facts over a fixed map of files.
 * @example new MemoryFacts({ 'src/a.ts': { content: 'x' } }).stat('src') // 'dir'
 */
export class MemoryFacts implements Facts {
  private readonly files = new Map<string, FileFact & { content: string }>();
  private readonly dirs = new Set<string>();
  /** Every call, in order, for tests that assert what was (not) asked. */
  readonly calls: string[] = [];

  private readonly symlinks: Map<string, string>;

  /**
   * @param symlinks link path -> target, both project-relative or absolute (a target is
   *   written as the link resolves it, not relative to the link's folder)
   */
  constructor(files: Record<string, MemoryFile> = {}, symlinks: Record<string, string> = {}) {
    this.symlinks = new Map(Object.entries(symlinks));
    for (const [path, file] of Object.entries(files)) {
      const content = file.content ?? '';
      const size = file.size ?? Buffer.byteLength(content, 'utf8');
      this.files.set(path, { path, size, mtimeMs: file.mtimeMs ?? 0, content });
      const segments = path.split('/');
      for (let i = 1; i < segments.length; i++) this.dirs.add(segments.slice(0, i).join('/'));
    }
  }

  findFiles(glob: string): FileFact[] {
    this.calls.push(`findFiles ${glob}`);
    const isMatch = picomatch(glob, { dot: true });
    return [...this.files.values()]
      .filter((f) => isMatch(f.path))
      .map(({ path, size, mtimeMs }) => ({ path, size, mtimeMs }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  stat(path: string): 'file' | 'dir' | null {
    this.calls.push(`stat ${path}`);
    const clean = path.replace(/\/+$/, '');
    if (this.files.has(clean)) return 'file';
    return clean === '' || clean === '.' || this.dirs.has(clean) ? 'dir' : null;
  }

  /**
   * Follows links on every prefix of the path, as the host does on the longest existing
   * prefix; null on a link loop. Calls are recorded only when the table is not empty.
   */
  realpath(path: string): string | null {
    return this.resolve(path)?.real ?? null;
  }

  /** As realpath, with every place a link pointed to on the way (the end among them). */
  resolve(path: string): { real: string; via: string[] } | null {
    if (this.symlinks.size === 0) return { real: path, via: [] };
    this.calls.push(`realpath ${path}`);
    let current = path;
    const via: string[] = [];
    for (let hops = 0; hops < 40; hops++) {
      const segments = current.split('/');
      let next: string | null = null;
      for (let i = 1; i <= segments.length && next === null; i++) {
        const target = this.symlinks.get(segments.slice(0, i).join('/'));
        if (target !== undefined) next = posix.normalize([target, ...segments.slice(i)].join('/')).replace(/\/$/, '');
      }
      if (next === null) return { real: current, via };
      via.push(next);
      current = next;
    }
    return null;
  }

  /** Windows file-name rules, when the test says so. */
  windows = false;

  volume(): { windows: boolean } {
    return { windows: this.windows };
  }

  readText(path: string, maxBytes: number): string | null {
    this.calls.push(`readText ${path}`);
    const file = this.files.get(path);
    if (!file) return null;
    const bytes = Buffer.from(file.content, 'utf8');
    return bytes.length <= maxBytes ? file.content : bytes.subarray(0, maxBytes).toString('utf8');
  }
}

/**
 * An EvaluationContext over in-memory files (and symlinks), project root '/proj'.
 * @example memoryContext({ '.env': { content: 'X=1' } }, { CI: '1' }, undefined, { 'src/link': '/etc' })
 */
export function memoryContext(
  files: Record<string, MemoryFile> = {},
  env: Record<string, string | undefined> = {},
  now?: () => number,
  symlinks: Record<string, string> = {},
): EvaluationContext & { facts: MemoryFacts } {
  return { projectRoot: '/proj', env, facts: new MemoryFacts(files, symlinks), ...(now ? { now } : {}) };
}
