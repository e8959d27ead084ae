/**
 * An in-memory Facts for tests: files given by project-relative path, folders implied.
 */
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

  constructor(files: Record<string, MemoryFile> = {}) {
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

  readText(path: string, maxBytes: number): string | null {
    this.calls.push(`readText ${path}`);
    const file = this.files.get(path);
    if (!file) return null;
    const bytes = Buffer.from(file.content, 'utf8');
    return bytes.length <= maxBytes ? file.content : bytes.subarray(0, maxBytes).toString('utf8');
  }
}

/**
 * An EvaluationContext over in-memory files, project root '/proj'.
 * @example memoryContext({ '.env': { content: 'X=1' } }, { CI: '1' })
 */
export function memoryContext(
  files: Record<string, MemoryFile> = {},
  env: Record<string, string | undefined> = {},
  now?: () => number,
): EvaluationContext & { facts: MemoryFacts } {
  return { projectRoot: '/proj', env, facts: new MemoryFacts(files), ...(now ? { now } : {}) };
}
