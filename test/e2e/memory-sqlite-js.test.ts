/**
 * better-sqlite3's JavaScript travels inside dist/ (scripts/build.mjs, bundledSqliteJs):
 * an event that reads the memory store loads it with the memory chunk, not as thirteen
 * files from node_modules; an installation whose better-sqlite3 is another version loads
 * that package as it is. Run as Claude Code runs the hook, in temp projects.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeProject, REPO_ROOT, type TempProject } from '../support/run-hook';

const POLICY = `version: 1
rules:
  - id: observe
    on: PostToolUse
    tools: Bash
    record: { kind: command, text: "{{command}}" }
  - id: recall
    on: UserPromptSubmit
    let:
      last: { last: command, scope: project }
    context: "Last command: {{last}}"
`;

const DEBUG = { HOOKPOLICY_DEBUG_CODE_CACHE: '1' };
const prompt = { hook_event_name: 'UserPromptSubmit', session_id: 's1', prompt: 'again' };
const answer = { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'Last command: make test' } };
/** The modules the run compiled, as its code-cache debug lines name them. */
const compiled = (stderr: string) => [...stderr.matchAll(/code cache \w+ (\S+) \((.*?)\)/g)].map((m) => m[1]);

/** A copy of this installation whose better-sqlite3 says it is another version (its files and addon otherwise the same). */
function installWithOtherSqlite(): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-install-')));
  for (const part of ['bin', 'dist', 'policies', 'package.json']) fs.cpSync(path.join(REPO_ROOT, part), path.join(root, part), { recursive: true });
  const modules = path.join(root, 'node_modules');
  fs.mkdirSync(modules);
  for (const name of fs.readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
    if (name !== 'better-sqlite3' && !name.startsWith('.')) fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', name), path.join(modules, name));
  }
  const from = path.join(REPO_ROOT, 'node_modules', 'better-sqlite3');
  const to = path.join(modules, 'better-sqlite3');
  fs.cpSync(path.join(from, 'lib'), path.join(to, 'lib'), { recursive: true });
  fs.mkdirSync(path.join(to, 'build', 'Release'), { recursive: true });
  fs.copyFileSync(path.join(from, 'build', 'Release', 'better_sqlite3.node'), path.join(to, 'build', 'Release', 'better_sqlite3.node'));
  const manifest = JSON.parse(fs.readFileSync(path.join(from, 'package.json'), 'utf8')) as { version: string };
  fs.writeFileSync(path.join(to, 'package.json'), JSON.stringify({ ...manifest, version: `${manifest.version}-other` }));
  return root;
}

describe('better-sqlite3 inside dist/', () => {
  let p: TempProject;
  beforeEach(() => {
    p = makeProject(POLICY);
    p.run({ hook_event_name: 'PostToolUse', session_id: 's1', tool_name: 'Bash', tool_input: { command: 'make test' }, tool_response: {} });
  });
  afterEach(() => p.remove());

  it('a store-reading event loads its JavaScript with the store\'s chunk, none of its files from node_modules', () => {
    const r = p.run(prompt, { env: DEBUG });
    expect([r.exitCode, r.json]).toEqual([0, answer]);
    expect(compiled(r.stderr)).toEqual(['hook.cjs', 'memory.cjs']);
    expect(r.stderr).not.toMatch(/node_modules[\\/]better-sqlite3/);
    expect(fs.readFileSync(path.join(REPO_ROOT, 'dist', 'memory.cjs'), 'utf8')).not.toMatch(/require\("bindings"\)/);
  });

  it('an installation with another version of better-sqlite3 loads that package itself, and answers the same', () => {
    const root = installWithOtherSqlite();
    try {
      const r = p.run(prompt, { env: DEBUG, bin: path.join(root, 'bin', 'policy.cjs') });
      expect([r.exitCode, r.json]).toEqual([0, answer]);
      expect(compiled(r.stderr)).toEqual(expect.arrayContaining(['memory.cjs', 'index.js', 'database.js', 'wrappers.js']));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
