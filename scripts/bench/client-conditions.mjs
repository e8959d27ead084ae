// The conditions of `npm run bench:client` (scripts/bench/client.mjs): one project each, with
// its own HOME, registered the way the condition says, and a script of N Write calls.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { join } from 'node:path';

/** The policy the hookpolicy conditions enforce: the security-guard pack, one more rule, fail-closed. */
export const BENCH_POLICY = `version: 1
include: [security-guard]
settings:
  on_error: closed
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write
    paths: { deny: [".env", "**/.env"] }
    deny: "{{path}} holds secrets"
`;

/** The port the http condition's server listens on inside the bench's namespace. */
const HTTP_PORT = 18707;
/** The port of the http floor: a server that answers every hook with an empty 200. */
const FLOOR_PORT = 18708;

function makeProject(work, id) {
  const root = join(work, id);
  const projectDir = join(root, 'project');
  const homeDir = join(root, 'home');
  for (const dir of [projectDir, homeDir, join(projectDir, '.claude'), join(projectDir, 'out')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(projectDir, '.claude', 'policies.yaml'), BENCH_POLICY);
  return { root, projectDir, homeDir };
}

/** hookpolicy in the project's node_modules as `npm install <repo>` puts it: a link, with its bins. */
function linkHookpolicy(repo, projectDir) {
  const modules = join(projectDir, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  symlinkSync(repo, join(modules, 'hookpolicy'), 'dir');
  for (const bin of ['policy', 'hookpolicy']) symlinkSync(join('..', 'hookpolicy', 'bin', 'policy.cjs'), join(modules, '.bin', bin));
}

function writeSettings(projectDir, settings) {
  writeFileSync(join(projectDir, '.claude', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

function policyCli(repo, projectDir, homeDir, args) {
  return execFileSync(process.execPath, [join(projectDir, 'node_modules', '.bin', 'policy'), ...args], {
    cwd: projectDir,
    encoding: 'utf8',
    env: { ...process.env, CLAUDE_PROJECT_DIR: projectDir, HOME: homeDir },
  });
}

function scenarioOf(projectDir, calls) {
  const main = [];
  for (let i = 0; i < calls; i++) main.push({ tools: [{ name: 'Write', input: { file_path: join(projectDir, 'out', `f${i}.txt`), content: `file ${i}\n` } }] });
  main.push({ text: 'Done.' });
  return { main };
}

/** Every Write of the script answered without error (an empty string), else what went wrong. */
function checkWrites(calls) {
  return (session) => {
    if (session.exitCode !== 0) return `the client exited with ${session.exitCode}: ${session.stderr.slice(0, 300)}`;
    const results = [];
    for (const request of session.requests) {
      for (const message of request.body?.messages ?? []) {
        if (!Array.isArray(message.content)) continue;
        for (const block of message.content) if (block.type === 'tool_result' && !results.some((r) => r.id === block.tool_use_id)) results.push({ id: block.tool_use_id, error: block.is_error === true, text: JSON.stringify(block.content).slice(0, 200) });
      }
    }
    const failed = results.find((r) => r.error);
    if (failed) return `a Write was refused: ${failed.text}`;
    if (results.length < calls) return `only ${results.length} of ${calls} Write calls came back`;
    return null;
  };
}

/**
 * The conditions, in table order.
 * @example clientConditions({ repo, work, calls: 20 }).map((c) => c.id) // ['none', 'true', 'node', 'http-floor', 'command', 'http', 'mod']
 */
export function clientConditions({ repo, work, calls }) {
  const condition = (id, label, setup, extra = {}) => {
    const p = makeProject(work, id);
    return { id, label, ...p, scenario: scenarioOf(p.projectDir, calls), check: checkWrites(calls), setup: () => setup(p), ...extra };
  };
  const hook = (handler) => ({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [handler] }] } });
  const plugin = join(work, 'mod-plugin');
  return [
    condition('none', 'no hook', (p) => {
      writeSettings(p.projectDir, {});
      return [];
    }),
    condition('true', 'command hook /bin/true', (p) => {
      writeSettings(p.projectDir, hook({ type: 'command', command: '/bin/true' }));
      return [];
    }),
    condition('node', "command hook node -e ''", (p) => {
      writeSettings(p.projectDir, hook({ type: 'command', command: process.execPath, args: ['-e', ''] }));
      return [];
    }),
    condition('http-floor', 'http hook, a server that answers nothing', (p) => {
      writeSettings(p.projectDir, hook({ type: 'http', url: `http://127.0.0.1:${FLOOR_PORT}/`, timeout: 10 }));
      const server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => res.end());
      }).listen(FLOOR_PORT, '127.0.0.1');
      return [() => server.close()];
    }),
    condition('command', 'policy init --mode command (process per event)', (p) => {
      writeSettings(p.projectDir, {});
      linkHookpolicy(repo, p.projectDir);
      policyCli(repo, p.projectDir, p.homeDir, ['init', '--mode', 'command']);
      return [];
    }),
    condition('http', 'policy init, the default (http; server started by SessionStart)', (p) => {
      writeSettings(p.projectDir, {});
      linkHookpolicy(repo, p.projectDir);
      policyCli(repo, p.projectDir, p.homeDir, ['init', '--port', String(HTTP_PORT)]);
      return [() => {
        if (existsSync(join(p.projectDir, 'node_modules'))) policyCli(repo, p.projectDir, p.homeDir, ['serve', '--stop', '--port', String(HTTP_PORT)]);
      }];
    }),
    condition('mod', 'plugin mod (tool.check, next)', (p) => {
      writeSettings(p.projectDir, {});
      mkdirSync(join(plugin, '.claude-plugin'), { recursive: true });
      mkdirSync(join(plugin, 'hooks'), { recursive: true });
      writeFileSync(join(plugin, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'bench-mod', version: '0.0.1', description: 'A tool.check mod that passes every Write on.' }));
      writeFileSync(join(plugin, 'hooks', 'hooks.json'), JSON.stringify({ modules: ['./register.js'] }));
      writeFileSync(join(plugin, 'hooks', 'register.js'), 'export function register(on) {\n  on("tool.check", { tool: "Write" }, ($, e, next) => next(e));\n}\n');
      return [];
    }, { args: ['--plugin-dir', plugin] }),
  ];
}

