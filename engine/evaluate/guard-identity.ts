/**
 * The guarded files as the file system knows them: a path is also read as the guarded file
 * it is, whatever its name. A hard link of `.claude/policies.yaml` is the policy; so is the
 * file a guarded name links to (`~/.claude/settings.json -> ~/dotfiles/claude.json`: writing
 * `~/dotfiles/claude.json` writes the settings), and a path inside a folder a guarded
 * folder's name leads to. Only a path that exists is looked at (a new file has no other
 * name), and the guarded files are looked at once per event, when the first such path is.
 */
import { diagnostic } from '../diagnostics';
import { escapeGlob } from '../glob-text';
import type { CompiledRule, Diagnostic, Facts, FileIdentity, GuardedPaths } from '../types';

interface Guarded {
  path: string;
  /** file: the file itself; folder: it and everything inside; holder: the folder itself (it holds guarded files). */
  kind: 'file' | 'folder' | 'holder';
}

export class GuardIdentity {
  /** Warnings found while looking at the guarded files (one that has several names), for the decision. */
  readonly warnings: Diagnostic[] = [];
  /** The guarded paths by identity, each kind looked at when a path first needs it. */
  private readonly index: { [kind in Guarded['kind']]?: Map<string, string> } = {};
  private project: string | null | undefined;
  private readonly known = new Map<string, string[]>();

  constructor(private readonly guard: GuardedPaths, private readonly facts: Facts) {}

  /**
   * The guarded paths `target` is another name of ([] when none, or when it does not exist).
   * `target` is a path a write reaches, symlinks already followed, as the facts take it.
   * @example identity.namesOf('src/p.yaml') // ['.claude/policies.yaml'] when src/p.yaml is a hard link of the policy
   */
  namesOf(target: string): string[] {
    let names = this.known.get(target);
    if (names === undefined) this.known.set(target, (names = this.find(target)));
    return names;
  }

  private find(target: string): string[] {
    const identity = this.identity(target);
    if (identity === null) return [];
    // A file is a guarded file, a folder a guarded folder or one that holds guarded files.
    const kinds: Array<Guarded['kind']> = identity.kind === 'dir' ? ['folder', 'holder'] : ['file'];
    for (const kind of kinds) {
      const exact = this.guarded(kind).get(identity.id);
      if (exact !== undefined) return exact === target ? [] : [exact];
    }
    const inside = this.insideFolder(target);
    if (inside !== null) return [inside];
    // A hard link of a file inside a guarded folder (the memory journal, the webhook spool):
    // only a file with several names can be one, and only then are the folders searched.
    const linked = identity.kind === 'file' && identity.links > 1 ? this.searchFolders(identity.id) : null;
    return linked === null ? [] : [linked];
  }

  private identity(path: string): FileIdentity | null {
    return this.facts.identity ? this.facts.identity(path) : null;
  }

  /** The guarded paths of one kind by identity; a guarded file with several names is reported. */
  private guarded(kind: Guarded['kind']): Map<string, string> {
    const found = this.index[kind];
    if (found) return found;
    const index = new Map<string, string>();
    const paths = kind === 'file' ? this.guard.files : kind === 'folder' ? this.guard.folders : this.guard.holders;
    // A folder that is the project itself (hookpolicy's own repository) guards nothing by identity.
    if (kind !== 'file' && this.project === undefined) this.project = this.identity('.')?.id ?? null;
    for (const path of paths) {
      const identity = this.identity(path);
      if (identity === null || identity.id === this.project || index.has(identity.id)) continue;
      index.set(identity.id, path);
      if (kind === 'file' && identity.kind === 'file' && identity.links > 1) {
        this.warnings.push(diagnostic('guard-linked', `${path} has ${identity.links} names (hard links): a write through another name changes it. hookpolicy reads the names it finds as the file itself; remove the others (find / -xdev -samefile ${path})`));
      }
    }
    return (this.index[kind] = index);
  }

  /** The guarded path `target` is, when a folder above it is a guarded folder by another name; null otherwise. */
  private insideFolder(target: string): string | null {
    if (this.guard.folders.length === 0) return null;
    for (let folder = parentOf(target); folder !== null; folder = parentOf(folder)) {
      const identity = this.identity(folder);
      const found = identity === null ? undefined : this.guarded('folder').get(identity.id);
      if (found !== undefined) return found === folder ? null : `${found}/${target.slice(folder.length + 1)}`;
    }
    return null;
  }

  /** A file in a guarded folder with this identity, or null. */
  private searchFolders(id: string): string | null {
    for (const folder of this.guard.folders) {
      for (const file of this.facts.findFiles(`${escapeGlob(folder)}/**`)) {
        if (this.identity(file.path)?.id === id) return file.path;
      }
    }
    return null;
  }
}

const guardsByTool = new WeakMap<readonly CompiledRule[], Map<string, GuardedPaths | null>>();

/**
 * What the rules that guard by identity (CompiledRule.identity, the built-in
 * self-protection) guard for an event of `tool`; null when none applies to that tool (a
 * Read, a prompt): its paths are then judged by name alone.
 * @example identityGuardFor(policy.rules, 'Write')?.files // ['.claude/policies.yaml', ...]
 */
export function identityGuardFor(rules: readonly CompiledRule[], tool: string | null): GuardedPaths | null {
  if (tool === null) return null;
  let byTool = guardsByTool.get(rules);
  if (byTool === undefined) guardsByTool.set(rules, (byTool = new Map()));
  let found = byTool.get(tool);
  if (found === undefined) {
    // The built-in rules come last.
    found = null;
    for (let i = rules.length - 1; i >= 0 && found === null; i--) {
      const rule = rules[i];
      if (rule.identity && (rule.tools === null || rule.tools.names.includes(tool))) found = rule.identity;
    }
    byTool.set(tool, found);
  }
  return found;
}

/** The folder above a path, short of the project (`.`) and the root (`/`); null at the top. */
function parentOf(path: string): string | null {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? null : path.slice(0, slash);
}
