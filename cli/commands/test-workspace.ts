/**
 * Where `policy test` runs its cases: a temp folder with one project per distinct file set
 * (written once; no case changes its project), and each project's file facts, kept for
 * the run.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createFileFacts } from '../../engine/host/file-facts';
import type { FileSpec } from '../../engine/testing/types';
import type { Facts } from '../../engine/types';

export interface Workspace {
  cacheDir: string;
  project(files: Record<string, FileSpec>): string;
  /** The runner's file facts for the project at `projectRoot`, one set per project for the whole run. */
  facts(projectRoot: string): Facts;
  dispose(): void;
}

/** Temp projects, one per distinct file set (cases do not change their project). */
export function createWorkspace(): Workspace {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'policy-test-')));
  const projects = new Map<string, string>();
  const facts = new Map<string, Facts>();
  return {
    cacheDir: path.join(root, 'cache'),
    facts(projectRoot) {
      let found = facts.get(projectRoot);
      if (!found) facts.set(projectRoot, (found = rememberingLinks(createFileFacts(projectRoot))));
      return found;
    },
    project(files) {
      const key = JSON.stringify(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
      let dir = projects.get(key);
      if (!dir) {
        dir = path.join(root, `p${projects.size}`);
        for (const [rel, spec] of Object.entries(files)) writeSpec(path.join(dir, rel), spec);
        fs.mkdirSync(dir, { recursive: true });
        projects.set(key, dir);
      }
      return dir.split(path.sep).join('/');
    },
    dispose: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * File facts whose answers about links (`resolve`, `realpath`: a walk that lstats every
 * folder of a path, ~8 % of a 10,000-case run) are kept for the run: nothing in a run
 * changes a project. Every other question reads the disk, as in the runner.
 */
export function rememberingLinks(facts: Facts): Facts {
  const resolve = facts.resolve;
  if (!resolve) return facts;
  const known = new Map<string, ReturnType<typeof resolve>>();
  const remembered = (p: string) => {
    if (!known.has(p)) known.set(p, resolve(p));
    return known.get(p) ?? null;
  };
  return { ...facts, resolve: remembered, realpath: (p: string) => remembered(p)?.real ?? null };
}

function writeSpec(file: string, spec: FileSpec): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'content' in spec ? spec.content : Buffer.alloc(spec.size, 'x'));
}
