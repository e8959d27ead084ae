/**
 * A throwaway project for one real-client session: a temp HOME, a project folder with the
 * team's files and policy, hookpolicy installed into its node_modules as `npm install
 * <folder>` installs a local package (a link, with its bin in node_modules/.bin), and the
 * runner registered by `policy init`, exactly as init writes it.
 *
 * Beside init's entries, a capture hook for every event saves each payload the client
 * sends, so the suite can check every field against the engine's table (payloads.ts).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EVENT_NAMES } from '../../engine/protocol';
import { linkHookpolicy } from '../support/install';

export interface ClientProject {
  root: string;
  projectDir: string;
  homeDir: string;
  /** Where the capture hook writes one file per payload. */
  payloadDir: string;
  /** What `policy init` printed. */
  initOutput: string;
  read(rel: string): string | null;
  exists(rel: string): boolean;
}

export interface ClientProjectOptions {
  /** `.claude/policies.yaml`. */
  policy: string;
  /** More files, relative to the project root (e.g. `.claude/agents/lynch.md`). */
  files?: Record<string, string>;
  /** Extra `policy init` arguments. */
  initArgs?: string[];
  /** Skip `policy init` (the test writes its own settings). */
  noInit?: boolean;
}

/** Events the capture hook is not registered for: a WorktreeCreate hook replaces git's worktree logic. */
const NOT_CAPTURED = new Set(['WorktreeCreate']);

function captureHooks(payloadDir: string): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  const command = `cat > "$(mktemp -p '${payloadDir}' payload-XXXXXX.json)"`;
  for (const event of EVENT_NAMES) {
    if (!NOT_CAPTURED.has(event)) hooks[event] = [{ hooks: [{ type: 'command', command }] }];
  }
  return hooks;
}

/**
 * Makes the project, installs hookpolicy and runs `npx policy init` in it.
 * @example const p = makeClientProject({ policy: 'version: 1\nrules: []\n' });
 */
export function makeClientProject(options: ClientProjectOptions): ClientProject {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-real-')));
  const projectDir = path.join(root, 'project');
  const homeDir = path.join(root, 'home');
  const payloadDir = path.join(root, 'payloads');
  for (const dir of [projectDir, homeDir, payloadDir, path.join(projectDir, '.claude')]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(projectDir, '.claude', 'policies.yaml'), options.policy);
  for (const [rel, text] of Object.entries(options.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(projectDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(projectDir, rel), text);
  }
  fs.writeFileSync(path.join(projectDir, '.claude', 'settings.json'), JSON.stringify({ hooks: captureHooks(payloadDir) }, null, 2));
  linkHookpolicy(projectDir);
  let initOutput = '';
  if (!options.noInit) {
    initOutput = execFileSync(process.execPath, [path.join(projectDir, 'node_modules', '.bin', 'policy'), 'init', ...(options.initArgs ?? ['--mode', 'command'])], {
      cwd: projectDir,
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_PROJECT_DIR: projectDir, HOME: homeDir },
    });
  }
  const abs = (rel: string) => path.join(projectDir, rel);
  return {
    root,
    projectDir,
    homeDir,
    payloadDir,
    initOutput,
    read: (rel) => (fs.existsSync(abs(rel)) ? fs.readFileSync(abs(rel), 'utf8') : null),
    exists: (rel) => fs.existsSync(abs(rel)),
  };
}
