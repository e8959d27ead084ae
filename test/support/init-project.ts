/**
 * Throwaway projects for `policy init` through the built bin (test/e2e/init*.test.ts):
 * hookpolicy linked in, HOME pointed at a temp folder, the caller's Claude Code and
 * hookpolicy variables left out; removed after the file's tests.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { linkHookpolicy } from './install';
import { POLICY_BIN, REPO_ROOT } from './run-hook';

/** The policy of the project docs/commands/init.md shows ("What init writes"). */
export const POLICY = `version: 1
settings:
  on_error: closed
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write|Edit
    paths: { deny: ["**/.env"] }
    deny: "{{path}} holds secrets."
  - id: no-rm-rf
    on: PreToolUse
    tools: Bash
    command: ['\\brm\\s+-rf\\b']
    deny: "No rm -rf."
  - id: pw-ask
    on: PreToolUse
    tools: mcp__playwright__*
    ask: "Browser action: confirm."
  - id: hello
    on: SessionStart
    match: { source: startup }
    context: "Hello."
  - id: notes
    on: Stop
    require: [{ file: NOTES.md }]
    block: "Write NOTES.md."
`;

/** That project's settings before init. */
export const ORIGINAL = {
  model: 'opus',
  permissions: { allow: ['Bash(git status)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './audit.sh' }] }],
    Notification: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
};

export interface Project { dir: string; home: string; file(rel: string): string; read(rel: string): string; write(rel: string, text: string): void }

function makeProject(files: Record<string, string>, installed = true): Project {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-init-')));
  if (installed) linkHookpolicy(dir);
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-home-')));
  const p: Project = {
    dir,
    home,
    file: (rel) => path.join(dir, ...rel.split('/')),
    read: (rel) => fs.readFileSync(p.file(rel), 'utf8'),
    write: (rel, text) => {
      fs.mkdirSync(path.dirname(p.file(rel)), { recursive: true });
      fs.writeFileSync(p.file(rel), text);
    },
  };
  for (const [rel, text] of Object.entries(files)) p.write(rel, text);
  return p;
}

/** The caller's environment without its Claude Code and hookpolicy variables, plus `extra`. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('CLAUDE_') || k.startsWith('HOOKPOLICY_') || k === 'POLICY_CONFIG') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** Runs `policy ARGS` in the project. */
export function policy(p: Project, ...args: string[]) {
  return policyWith(p, {}, ...args);
}

/** Runs `policy ARGS` in the project, with `env` added to its environment. */
export function policyWith(p: Project, env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [POLICY_BIN, ...args], { cwd: p.dir, env: cleanEnv({ HOME: p.home, ...env }), encoding: 'utf8', timeout: 60000 });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

const projects: Project[] = [];
/** A project with these files (hookpolicy installed unless `installed` is false), removed after the file's tests. */
export function project(files: Record<string, string>, installed = true): Project {
  const p = makeProject(files, installed);
  projects.push(p);
  return p;
}
afterAll(() => {
  for (const p of projects) for (const d of [p.dir, p.home]) fs.rmSync(d, { recursive: true, force: true });
});

/** The first ```lang block of a section of docs/commands/init.md. */
export function docBlock(lang: string, heading: string): string {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'commands', 'init.md'), 'utf8');
  const section = doc.slice(doc.indexOf(heading));
  return new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section)?.[1] ?? '';
}

