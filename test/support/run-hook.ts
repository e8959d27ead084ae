/**
 * Runs the built hook runner the way Claude Code does: `node bin/policy.cjs hook`, the event
 * JSON on stdin, CLAUDE_PROJECT_DIR pointing at a project folder. End-to-end tests use it
 * with throwaway projects made by `makeProject`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';

/** The repository root (where bin/ and policies/ live). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** The runner's entry point. */
export const POLICY_BIN = path.join(REPO_ROOT, 'bin', 'policy.cjs');

export interface RunHookOptions {
  /** The project folder: CLAUDE_PROJECT_DIR and the working directory. */
  projectDir: string;
  /** Extra environment; a key set to undefined is removed. */
  env?: Record<string, string | undefined>;
  /** Arguments after `hook`. */
  args?: string[];
  /** HOOKPOLICY_CACHE_DIR; a fresh temp folder when omitted. */
  cacheDir?: string;
  timeoutMs?: number;
  /** Another installation's bin/policy.cjs (default: this repository's). */
  bin?: string;
}

export interface RunHookResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  /** stdout parsed as JSON, or null when stdout is empty. Throws when stdout is not JSON. */
  json: unknown;
}

/**
 * Spawns `node bin/policy.cjs hook [args]` with `event` on stdin.
 * @example runHook({ hook_event_name: 'Stop' }, { projectDir: dir }).exitCode // 0
 */
export function runHook(event: unknown, options: RunHookOptions): RunHookResult {
  const input = typeof event === 'string' ? event : JSON.stringify(event);
  const child = spawnSync(process.execPath, [options.bin ?? POLICY_BIN, 'hook', ...(options.args ?? [])], {
    cwd: options.projectDir,
    env: hookEnv(options),
    input,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 20000,
  });
  if (child.error) throw child.error;
  const stdout = child.stdout ?? '';
  const trimmed = stdout.trim();
  let json: unknown = null;
  if (trimmed !== '') {
    try {
      json = JSON.parse(trimmed);
    } catch {
      throw new Error(`hook stdout is not JSON: ${JSON.stringify(stdout)} (stderr: ${child.stderr})`);
    }
  }
  return { stdout, stderr: child.stderr ?? '', exitCode: child.status, json };
}

/** The environment of a hook process: the test's own, minus anything that could steer the runner. */
function hookEnv(options: RunHookOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('CLAUDE_') || key.startsWith('HOOKPOLICY_') || key === 'ATEAM_ENFORCEMENT') continue;
    env[key] = value;
  }
  env.CLAUDE_PROJECT_DIR = options.projectDir;
  env.HOOKPOLICY_CACHE_DIR = options.cacheDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-cache-'));
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export interface TempProject {
  dir: string;
  cacheDir: string;
  /** Writes a project-relative file (creating folders); an mtime in ms sets its modification time. */
  write(relative: string, content: string, mtimeMs?: number): string;
  /** Absolute path of a project-relative path. */
  file(relative: string): string;
  /** The lines of a project-relative JSONL file, parsed; [] when it does not exist. */
  readJsonl(relative: string): Array<Record<string, unknown>>;
  run(event: unknown, options?: Omit<RunHookOptions, 'projectDir' | 'cacheDir'>): RunHookResult;
  remove(): void;
}

/**
 * A fresh project folder with `.claude/policies.yaml` and the given files.
 * @example const p = makeProject('version: 1\ninclude: [ai-team]\n'); p.run(event); p.remove();
 */
export function makeProject(policy: string, files: Record<string, string> = {}): TempProject {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-project-')));
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-cache-'));
  const project: TempProject = {
    dir,
    cacheDir,
    file: (relative) => path.join(dir, ...relative.split('/')),
    write(relative, content, mtimeMs) {
      const target = project.file(relative);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
      if (mtimeMs !== undefined) fs.utimesSync(target, mtimeMs / 1000, mtimeMs / 1000);
      return target;
    },
    readJsonl(relative) {
      const target = project.file(relative);
      if (!fs.existsSync(target)) return [];
      return fs.readFileSync(target, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
    },
    run: (event, options = {}) => runHook(event, { ...options, projectDir: dir, cacheDir }),
    remove() {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(cacheDir, { recursive: true, force: true });
    },
  };
  project.write('.claude/policies.yaml', policy);
  for (const [relative, content] of Object.entries(files)) project.write(relative, content);
  return project;
}

/** The fictional project root the fixture events were recorded in. */
export const FIXTURE_ROOT = '/home/dev/shop';

/**
 * A fixture event (fixtures/events/<pack>/<name>.json) moved into `projectDir`: every string
 * starting with the fixture root is re-rooted, and `overrides` are merged on top.
 * @example loadEvent('ai-team', 'lynch-write', '/tmp/p').tool_input // { file_path: '/tmp/p/lib/env.ts', ... }
 */
export function loadEvent(pack: string, name: string, projectDir: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const text = fs.readFileSync(path.join(REPO_ROOT, 'fixtures', 'events', pack, `${name}.json`), 'utf8');
  const event = reroot(JSON.parse(text), projectDir) as Record<string, unknown>;
  return { ...event, ...overrides };
}

function reroot(value: unknown, projectDir: string): unknown {
  if (typeof value === 'string') {
    if (value === FIXTURE_ROOT || value.startsWith(`${FIXTURE_ROOT}/`)) return projectDir + value.slice(FIXTURE_ROOT.length);
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => reroot(v, projectDir));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reroot(v, projectDir)]));
  }
  return value;
}

/**
 * The message of a rule in a shipped pack, with its placeholders filled from `values`;
 * throws on a placeholder the test did not give, so an expectation is never half-filled.
 * @example packMessage('ai-team', 'ateam-reviewer-writes-nothing', { path: 'lib/env.ts' })
 */
export function packMessage(pack: string, ruleId: string, values: Record<string, string>): string {
  const doc = parseYaml(fs.readFileSync(path.join(REPO_ROOT, 'policies', `${pack}.yaml`), 'utf8')) as {
    rules: Array<Record<string, unknown>>;
  };
  const rule = doc.rules.find((r) => r.id === ruleId);
  if (!rule) throw new Error(`no rule ${ruleId} in policies/${pack}.yaml`);
  const key = ['deny', 'ask', 'allow', 'block', 'warn', 'context'].find((k) => typeof rule[k] === 'string');
  if (!key) throw new Error(`rule ${ruleId} has no outcome`);
  return (rule[key] as string).replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`packMessage: no value for {{${name}}} of ${ruleId}`);
    return values[name];
  });
}
