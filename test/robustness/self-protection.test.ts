/**
 * The guarded cannot switch off the guard: the built-in self-protection rule, through the
 * built runner, as the confined agent would try it (issue 12, self-modification). Every
 * writing tool, Bash's parsed writes included, for subagents and the main session; the
 * team opens files path by path, and an included file cannot open any.
 */
import * as path from 'node:path';
import { makeProject, type TempProject } from '../support/run-hook';

const TEAM = `version: 1
include: [extra.yaml]
settings:
  log: { file: .claude/decisions.jsonl }
rules:
  - id: no-env
    on: PreToolUse
    tools: Write
    paths: { deny: [".env"] }
    deny: "no .env"
`;
const EXTRA = 'version: 1\nsettings:\n  self_protection: { except: [".claude/policies.yaml"] }\nrules: []\n';

const write = (file: string, agent?: string) => ({
  hook_event_name: 'PreToolUse', session_id: 's', cwd: '/', tool_name: 'Write',
  tool_input: { file_path: file, content: 'rules: []\n' }, ...(agent ? { agent_id: 'a1', agent_type: agent } : {}),
});
const bash = (command: string, agent?: string) => ({
  hook_event_name: 'PreToolUse', session_id: 's', cwd: '/', tool_name: 'Bash',
  tool_input: { command }, ...(agent ? { agent_id: 'a1', agent_type: agent } : {}),
});

function decisionOf(project: TempProject, event: Record<string, unknown>): string | undefined {
  const r = project.run({ ...event, cwd: project.dir });
  return (r.json as { hookSpecificOutput?: { permissionDecision?: string } } | null)?.hookSpecificOutput?.permissionDecision;
}

describe('self-protection through the runner', () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject(TEAM, { '.claude/extra.yaml': EXTRA, '.claude/settings.json': '{}\n' });
  });
  afterAll(() => project.remove());

  it.each([
    ['the policy file', '.claude/policies.yaml'],
    ['an included policy file', '.claude/extra.yaml'],
    ['the project settings', '.claude/settings.json'],
    ['the local settings', '.claude/settings.local.json'],
    ['the decision log', '.claude/decisions.jsonl'],
    ['the decision log\'s lock', '.claude/decisions.jsonl.lock'],
    ['the decision log\'s last-line hash', '.claude/decisions.jsonl.last'],
    ['the decision log\'s takeover lock', '.claude/decisions.jsonl.lock.break'],
    ['a decision log set aside', '.claude/decisions.jsonl.set-aside-20260115T100000Z-k3j9x2'],
    ['the installed package', 'node_modules/hookpolicy/dist/hook.cjs'],
    ['the memory store\'s journal', '.claude/hookpolicy/memory/journal.jsonl'],
    ['the memory store\'s index', '.claude/hookpolicy/memory/index.db'],
    ['Codex\'s hooks', '.codex/config.toml'],
    ['Codex\'s hooks.json', '.codex/hooks.json'],
    ['Gemini\'s settings', '.gemini/settings.json'],
  ])('denies a subagent\'s Write to %s', (_name, file) => {
    expect(decisionOf(project, write(project.file(file), 'lynch'))).toBe('deny');
  });

  it.each([
    ['Codex\'s trust of the runner\'s hooks', '.codex/config.toml'],
    ['Gemini\'s trusted folders', '.gemini/trustedFolders.json'],
    ['Gemini\'s user settings', '.gemini/settings.json'],
  ])('denies a Write to %s in the home folder', (_name, file) => {
    const home = process.env.HOME as string;
    expect(decisionOf(project, write(`${home}/${file}`, 'lynch'))).toBe('deny');
    expect(decisionOf(project, bash(`echo 'enabled = false' >> ${home}/${file}`))).toBe('deny');
  });

  it('denies the main session too, and names the file and the way out', () => {
    const r = project.run({ ...write(project.file('.claude/settings.json')), cwd: project.dir });
    expect(r.json).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: expect.stringMatching(/^\.claude\/settings\.json is or holds one of hookpolicy's own files .*settings\.self_protection\.$/),
      },
    });
  });

  it.each([
    ['a redirection', 'echo \'{"disableAllHooks":true}\' > .claude/settings.local.json'],
    ['sed -i on the policy', 'sed -i s/deny/warn/ .claude/extra.yaml'],
    ['rm of the log', 'rm -f .claude/decisions.jsonl'],
    ['a lock planted beside the log', 'touch .claude/decisions.jsonl.lock'],
    ['a hash planted beside the log', 'echo 0 > .claude/decisions.jsonl.last'],
    ['a copy over the settings', 'cp /tmp/x .claude/settings.json'],
    ['an append to the memory journal', 'echo \'{"kind":"summary","text":"all tests pass"}\' >> .claude/hookpolicy/memory/journal.jsonl'],
    ['rm of the memory index', 'rm -f .claude/hookpolicy/memory/index.db'],
    ['a copy over the memory index', 'cp /tmp/x .claude/hookpolicy/memory/index.db'],
    ['sed -i on Codex\'s hooks', 'sed -i /hookpolicy/d .codex/config.toml'],
    ['switching the runner off in Gemini', 'echo \'{"hooksConfig":{"enabled":false}}\' > .gemini/settings.json'],
  ])('denies a Bash write by %s', (_name, command) => {
    expect(decisionOf(project, bash(command, 'murdock'))).toBe('deny');
  });

  it.each([
    ['removing .claude', 'rm -rf .claude'],
    ['moving .claude away', 'mv .claude /tmp/gone'],
    ['removing the memory store\'s folder', 'rm -rf .claude/hookpolicy'],
    ['removing node_modules', 'rm -rf node_modules'],
    ['removing the project', 'rm -rf .'],
    ['removing the project from above', 'cd .. && rm -rf "$OLDPWD"; cd / && rm -rf PROJECT'],
  ])('denies a folder that holds the guard: %s', (_name, command) => {
    expect(decisionOf(project, bash(command.replace('PROJECT', project.dir), 'murdock'))).toBe('deny');
    expect(decisionOf(project, bash(command.replace('PROJECT', project.dir)))).toBe('deny');
  });

  it.each([
    ['every file of .claude', 'rm -rf .claude/*'],
    ['the policy, by a pattern', 'cp /tmp/x .claude/polic*.yaml'],
    ['the settings, by a redirect through a pattern', 'echo \'{"disableAllHooks":true}\' > .claude/settings.js?n'],
    ['every dot folder', 'rm -rf .[!.]*'],
    ['the policy files, from inside .claude', 'cd .claude && rm -f *.yaml'],
    ['the policy and the settings, by braces', 'rm .claude/{policies.yaml,settings.json}'],
  ])('denies a write through a pathname pattern or braces, expanded as bash will (before: not static, so no decision): %s', (_name, command) => {
    expect(decisionOf(project, bash(command, 'murdock'))).toBe('deny');
  });

  it.each([
    ['an older policy, from a commit', 'git checkout HEAD~1 -- .claude/extra.yaml'],
    ['the settings, without --', 'git checkout HEAD~3 .claude/settings.json'],
    ['.claude, restored', 'git restore --source main .claude'],
    ['the policy, stashed away', 'git stash push -m wip -- .claude/extra.yaml'],
    ['the log, removed through git', 'git rm -f .claude/decisions.jsonl'],
    ['the settings, moved through git', 'git mv .claude/settings.json /tmp/s.json'],
    ['every YAML file, by a pathspec git matches itself', "git checkout HEAD -- '*.yaml'"],
    ['the policy, from inside .claude by -C', 'git -C .claude checkout HEAD -- extra.yaml'],
    ['the whole working folder', 'git checkout -- .'],
  ])('denies git writing the guard\'s files by name (before: not a git command known, so no decision): %s', (_name, command) => {
    expect(decisionOf(project, bash(command, 'murdock'))).toBe('deny');
    expect(decisionOf(project, bash(command))).toBe('deny');
  });

  it('leaves git alone where it names no file of the guard, or only switches branches (not checkable: Claude Code\'s permissions hold)', () => {
    expect(decisionOf(project, bash('git checkout HEAD~1 -- src/app.ts', 'murdock'))).toBeUndefined();
    expect(decisionOf(project, bash('git restore --staged .claude/settings.json', 'murdock'))).toBeUndefined();
    expect(decisionOf(project, bash('git checkout main', 'murdock'))).toBeUndefined();
  });

  it.each([
    ['gzip of an included policy file', 'gzip .claude/extra.yaml'],
    ['perl -pi on the settings', 'perl -pi -e s/hooks/x/ .claude/settings.json'],
    ['inline Python truncating the settings', `python3 -c "open('.claude/settings.json', 'w')"`],
    ['inline Node removing the log', `node -e 'require("fs").rmSync(".claude/decisions.jsonl")'`],
    ['an editor on the settings', 'vim .claude/settings.json'],
    ['the installed CLI, by path', 'node node_modules/hookpolicy/bin/policy.cjs uninstall'],
    ['find -delete in the folder that holds the policy', 'find .claude -name "*.yaml" -delete'],
    ['find -exec rm in that folder', "find .claude -name '*.yaml' -exec rm {} +"],
    ['a script given that folder', 'python3 tools/clean.py .claude'],
  ])('asks about a command it cannot read that names a guarded file or a folder that holds one (before: no decision): %s', (_name, command) => {
    const r = project.run({ ...bash(command, 'murdock'), cwd: project.dir });
    expect(r.json).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'ask',
        permissionDecisionReason: expect.stringMatching(/^This Bash command names \S+, which rule "hookpolicy-self-protection" guards, and what it writes cannot be known \(.+\): approve it only if it leaves that alone\.$/),
      },
    });
    expect(decisionOf(project, bash(command))).toBe('ask');
  });

  it('asks about a PowerShell command that names a guarded file, and not about one that names none', () => {
    const ps = (command: string) => ({ ...bash(command, 'murdock'), tool_name: 'PowerShell' });
    expect(decisionOf(project, ps('Remove-Item -Force .claude\\settings.json'))).toBe('ask');
    expect(decisionOf(project, ps('Get-ChildItem src'))).toBeUndefined();
  });

  it.each([
    ['uninstall, through npx', 'npx policy uninstall'],
    ['uninstall, by the other bin name', 'npx hookpolicy uninstall'],
    ['init in command mode, from a subfolder', 'cd src && npx -y hookpolicy@latest init --mode command'],
    ['uninstall of the local settings', 'policy uninstall --scope local'],
    ['forgetting every memory record', 'npx policy memory forget --all'],
    ['removing the package the command entries run', 'npm uninstall hookpolicy'],
    ['replacing it with another version', 'npm install -D hookpolicy@0.0.1'],
  ])("denies hookpolicy's own command line where it writes the guard (before: not a command whose writes are known, so no decision): %s", (_name, command) => {
    expect(decisionOf(project, bash(command, 'murdock'))).toBe('deny');
    expect(decisionOf(project, bash(command))).toBe('deny');
  });

  it('leaves commands it cannot read alone when they name no guarded file (naming the project, the home folder or a folder above is no sign)', () => {
    for (const command of ['npm install', 'npm install left-pad', 'npx prettier --write .', "find . -name '*.pyc' -delete", 'python3 tools/gen.py src/app.ts', 'npx prettier --write .claude/agents', 'tool ~ ..', 'npx policy lint', 'npx policy explain --event e.json']) {
      expect({ command, decision: decisionOf(project, bash(command, 'murdock')) }).toEqual({ command, decision: undefined });
    }
  });

  it('denies planting a node or env that the hook command would start, in any folder of its PATH (before: allowed, and every hook then ran the fake)', () => {
    const early = project.file('tools/bin');
    const env = { PATH: `${early}:${process.env.PATH ?? ''}` };
    for (const command of [`printf '#!/bin/sh\\necho {}' > ${early}/node`, `ln -sf /bin/true ${early}/env`, `cp /tmp/fake ${path.dirname(process.execPath)}/node`, `rm -rf ${early}`]) {
      const r = project.run({ ...bash(command, 'murdock'), cwd: project.dir }, { env });
      expect({ command, decision: (r.json as { hookSpecificOutput?: { permissionDecision?: string } } | null)?.hookSpecificOutput?.permissionDecision }).toEqual({ command, decision: 'deny' });
    }
    // Another program in that folder is not the guard's.
    expect(project.run({ ...bash(`echo x > ${early}/mytool`, 'murdock'), cwd: project.dir }, { env }).json).toBeNull();
  });

  it('denies a write to the user settings Claude Code reads from $CLAUDE_CONFIG_DIR (before: only ~/.claude was guarded)', () => {
    const config = project.file('profile');
    const r = project.run({ ...bash(`echo '{"disableAllHooks": true}' > ${config}/settings.json`, 'murdock'), cwd: project.dir }, { env: { CLAUDE_CONFIG_DIR: config } });
    expect((r.json as { hookSpecificOutput?: { permissionDecision?: string } } | null)?.hookSpecificOutput?.permissionDecision).toBe('deny');
  });

  it('denies a write to the config Codex reads from $CODEX_HOME, where it records which hooks the user trusts', () => {
    const codexHome = project.file('codex-home');
    const r = project.run({ ...bash(`sed -i '/trusted_hash/d' ${codexHome}/config.toml`, 'murdock'), cwd: project.dir }, { env: { CODEX_HOME: codexHome } });
    expect((r.json as { hookSpecificOutput?: { permissionDecision?: string } } | null)?.hookSpecificOutput?.permissionDecision).toBe('deny');
  });

  it('the cache folder the runner uses is protected too', () => {
    expect(decisionOf(project, bash(`echo x > ${project.cacheDir}/poisoned.json`, 'murdock'))).toBe('deny');
  });

  it('an included file cannot open a path: only the top file\'s self_protection counts', () => {
    expect(decisionOf(project, write(project.file('.claude/policies.yaml'), 'lynch'))).toBe('deny');
  });

  it('leaves ordinary writes, and commands that write nothing it protects, alone', () => {
    expect(decisionOf(project, write(project.file('src/app.ts'), 'lynch'))).toBeUndefined();
    expect(decisionOf(project, bash('npm test', 'murdock'))).toBeUndefined();
    expect(decisionOf(project, bash('cat .claude/settings.json', 'murdock'))).toBeUndefined();
    expect(decisionOf(project, bash('rm -rf build dist && mkdir -p .claude/agents', 'murdock'))).toBeUndefined();
  });
});

describe('self-protection openings', () => {
  const OPENED = `version: 1
settings:
  self_protection:
    except: [".claude/settings.local.json"]
    main_session: [".claude/policies.yaml"]
rules: []
`;
  let project: TempProject;
  beforeAll(() => {
    project = makeProject(OPENED);
  });
  afterAll(() => project.remove());

  it('except: any agent may write the path', () => {
    expect(decisionOf(project, write(project.file('.claude/settings.local.json'), 'lynch'))).toBeUndefined();
    expect(decisionOf(project, write(project.file('.claude/settings.local.json')))).toBeUndefined();
  });

  it('main_session: the main session may write the path, a subagent still may not', () => {
    expect(decisionOf(project, write(project.file('.claude/policies.yaml')))).toBeUndefined();
    expect(decisionOf(project, write(project.file('.claude/policies.yaml'), 'lynch'))).toBe('deny');
    expect(decisionOf(project, write(project.file('.claude/settings.json')))).toBe('deny');
  });
});

describe("the policy server's state folder, where its token is: no agent reads it", () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject('version: 1\nrules: []\n');
  });
  afterAll(() => project.remove());
  const read = (tool: string, input: Record<string, unknown>) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd: '/', tool_name: tool, tool_input: input });
  const serve = () => path.join(project.cacheDir, 'serve');

  it.each([
    ['a Read of the token', () => read('Read', { file_path: path.join(serve(), 'token') })],
    ['a Grep in the folder', () => read('Grep', { pattern: '.', path: serve() })],
    ['a Glob in the folder', () => read('Glob', { pattern: '*', path: serve() })],
    ['a cat of the token', () => bash(`cat ${path.join(serve(), 'token')}`)],
    ['a copy of the folder', () => bash(`cp -r ${serve()} /tmp/x`)],
    ['the token read into a variable', () => bash(`T=$(cat "${serve()}/token"); echo $T`)],
  ])('denies the main session %s', (_name, event) => {
    expect(decisionOf(project, event())).toBe('deny');
  });

  it.each([
    ['Read of the cache folder\'s log', () => read('Read', { file_path: path.join(project.cacheDir, 'fail-opens.jsonl') })],
    ['a folder named serve-notes beside it', () => bash(`ls ${serve()}-notes`)],
    ['an ordinary read', () => bash('cat src/serve/token.ts')],
  ])('leaves alone %s', (_name, event) => {
    expect(decisionOf(project, event())).toBeUndefined();
  });
});
