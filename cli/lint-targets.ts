/**
 * What `policy lint` checks. Named on the command line: files, `-` (the policy on
 * stdin), folders (every policy file in them) and globs a shell left unexpanded (quoted,
 * or on Windows). Else the project's policy, found from the working directory up, as
 * ESLint finds its config. Each named file is a policy of its own, linted with its
 * includes; the policy found is the list the runner would load.
 */
import * as fs from 'fs';
import * as path from 'path';
import { choosePolicyFiles, findPolicyProject } from '../engine/host/discover';
import type { PolicyReader } from '../engine/load';
import { walkGlob } from '../engine/host/walk-glob';

/** Folders a folder or glob walk never enters (as `policy test`). */
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist']);

/** The file name diagnostics give the policy read from stdin. */
export const STDIN_NAME = '<stdin>';

export interface LintTargetOptions {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** --project-dir, relative to cwd. */
  projectDir?: string;
}

export interface LintTargets {
  /** One entry per policy: its root files (several only for a $POLICY_CONFIG list). */
  policies: string[][];
  /** The project: where the default policy was looked for and its settings are read. */
  projectRoot: string;
  /** No file named: the project was found by searching up from the working directory. */
  searched: boolean;
  /** Usage problems: a folder without a policy file, a glob that matches nothing. */
  problems: string[];
  /**
   * $POLICY_CONFIG's files when no file is named and they wait on the project's policy (the
   * only entry of `policies`): linted instead where its top file allows them, as the runner
   * loads them (settlePolicyChoice). Empty otherwise.
   */
  requested: string[];
}

/**
 * @example resolveLintTargets(['policies/'], { cwd: '/p', env: {} }).policies
 *   // [['/p/policies/ai-team.yaml'], ['/p/policies/dia.yaml'], ...]
 */
export function resolveLintTargets(args: readonly string[], options: LintTargetOptions): LintTargets {
  const { cwd, env } = options;
  // --project-dir and $CLAUDE_PROJECT_DIR name the project; $POLICY_CONFIG's files are relative to the working directory.
  const named = options.projectDir ?? (env.CLAUDE_PROJECT_DIR || (env.POLICY_CONFIG?.trim() ? '.' : undefined));
  const found = named === undefined ? findPolicyProject(cwd) : null;
  const projectRoot = found ?? posix(path.resolve(cwd, named ?? '.'));
  const searched = named === undefined && args.length === 0;
  if (args.length === 0) {
    const { roots, requested } = choosePolicyFiles({ configs: [], env, projectRoot });
    return { policies: roots.length > 0 ? [roots] : [], projectRoot, searched, problems: [], requested };
  }
  const policies: string[][] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    if (!seen.has(file)) policies.push([file]);
    seen.add(file);
  };
  for (const arg of args) {
    if (arg === '-') {
      add(STDIN_NAME);
      continue;
    }
    const abs = path.resolve(cwd, arg);
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    if (stat?.isDirectory()) {
      const files = policyFilesIn(abs);
      if (files.length === 0) problems.push(`no policy file in ${arg} (a .yaml or .yml file with a top-level version)`);
      files.forEach(add);
    } else if (!stat && walkGlob(arg).isGlob) {
      const files = expandGlob(arg, cwd);
      if (files.length === 0) problems.push(`no file matches ${arg}`);
      files.forEach(add);
    } else {
      // A missing file is linted too: the loader reports it as policy-not-found.
      add(posix(abs));
    }
  }
  return { policies, projectRoot, searched, problems, requested: [] };
}

/**
 * The reader, answering `<stdin>` with the text on stdin (read once) when a policy is
 * read from there; the relative paths its includes name are resolved against cwd.
 */
export function withStdin(reader: PolicyReader, policies: string[][], cwd: string, readStdin?: () => string): PolicyReader {
  if (!policies.some((roots) => roots.includes(STDIN_NAME))) return reader;
  const text = readStdin ? readStdin() : '';
  return {
    read: (file) => (file === STDIN_NAME ? text : reader.read(posix(path.resolve(cwd, file)))),
    packPath: (name) => reader.packPath(name),
  };
}

/** The process's stdin, whole ('' when there is none). */
export function readProcessStdin(): string {
  try {
    return fs.readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Every policy file under `dir`: a .yaml or .yml file whose text has a top-level
 * `version` key, sorted.
 */
export function policyFilesIn(dir: string): string[] {
  const out: string[] = [];
  walk(dir, '', (abs, _rel, isDir) => {
    if (!isDir && /\.ya?ml$/i.test(abs) && looksLikePolicy(abs)) out.push(posix(abs));
    return true;
  });
  return out;
}

/** The files a glob matches (relative to `cwd`), a matched folder standing for its policy files. */
function expandGlob(pattern: string, cwd: string): string[] {
  const plan = walkGlob(pattern.split(path.sep).join('/'));
  const out: string[] = [];
  walk(path.resolve(cwd, plan.base || '.'), '', (abs, rel, isDir) => {
    if (!plan.test(rel)) return isDir;
    if (isDir) out.push(...policyFilesIn(abs));
    else out.push(posix(abs));
    return false;
  });
  return out;
}

/**
 * Visits the entries under `dir` in name order, depth first; `visit` returns whether to
 * enter a folder. Symbolic links to files count as files; links to folders are not
 * followed.
 */
function walk(dir: string, rel: string, visit: (abs: string, rel: string, isDir: boolean) => boolean): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const abs = path.join(dir, entry.name);
    const entryRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
    const isDir = entry.isDirectory();
    const isFile = entry.isFile() || (entry.isSymbolicLink() && fs.statSync(abs, { throwIfNoEntry: false })?.isFile() === true);
    if (isDir && SKIPPED_DIRS.has(entry.name)) continue;
    if (!isDir && !isFile) continue;
    if (visit(abs, entryRel, isDir) && isDir) walk(abs, entryRel, visit);
  }
}

/** A top-level `version:` line (plain or quoted key), as every policy file has. */
function looksLikePolicy(file: string): boolean {
  try {
    return /^(?:version|"version"|'version')[ \t]*:/m.test(fs.readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

function posix(p: string): string {
  return p.split(path.sep).join('/');
}
