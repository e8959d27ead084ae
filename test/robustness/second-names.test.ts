/**
 * The guard holds by identity, not by name (issue 29): the confined agent writes a guarded
 * file through a second name (a hard link, a symlink, a copy or move of a link), through a
 * name one already has, or through a pathname pattern read with shell options that change
 * what it names. Through the built runner, as the ai-team implementer in its own lane
 * (`include: [ai-team, security-guard]`), and as the main session.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startPolicyServer } from '../support/policy-server';
import { makeProject, type TempProject } from '../support/run-hook';

const TEAM = `version: 1
include: [ai-team, security-guard]
settings:
  log: { file: .claude/decisions.jsonl }
rules: []
`;

const bash = (command: string, agent?: string) => ({
  hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command },
  ...(agent ? { agent_id: 'a1', agent_type: agent } : {}),
});

type Setup = (project: TempProject) => void;

/** A symlink at `at` (project-relative) whose text is `text`. */
const symlink = (text: string, at: string): Setup => (project) => {
  fs.mkdirSync(path.dirname(project.file(at)), { recursive: true });
  fs.symlinkSync(text, project.file(at));
};
/** A hard link at `at` of the project-relative (or absolute) file `of`. */
const hardLink = (of: string, at: string): Setup => (project) => {
  fs.mkdirSync(path.dirname(project.file(at)), { recursive: true });
  fs.linkSync(of.startsWith('/') ? of : project.file(of), project.file(at));
};

describe('second names of the guard\'s files, through the runner', () => {
  let project: TempProject;
  /** What the last setup made, removed before the next case. */
  let made: string[] = [];
  beforeAll(() => {
    project = makeProject(TEAM, {
      '.claude/settings.json': '{}\n', '.claude/decisions.jsonl': '', '.claude/hookpolicy/memory/journal.jsonl': '',
      'src/app.ts': 'export {};\n', 'src/deep/x.ts': '', 'shared/a.ts': '',
    });
    fs.mkdirSync(path.join(project.cacheDir, 'webhook-spool'), { recursive: true });
    fs.writeFileSync(path.join(project.cacheDir, 'webhook-spool', 'r1.json'), '{}');
  });
  afterAll(() => project.remove());
  afterEach(() => {
    for (const p of made) fs.rmSync(p, { recursive: true, force: true });
    made = [];
  });

  /** Runs the setups (remembering what they made), then the event; the permission decision. */
  function decide(event: Record<string, unknown>, setups: Setup[] = []): string | undefined {
    const before = new Set(listAll(project.dir));
    for (const setup of setups) setup(project);
    made.push(...listAll(project.dir).filter((p) => !before.has(p)));
    const r = project.run({ ...event, cwd: project.dir });
    return (r.json as { hookSpecificOutput?: { permissionDecision?: string } } | null)?.hookSpecificOutput?.permissionDecision;
  }

  it.each<[string, string, Setup[]]>([
    ['a hard link of the policy, then a write through it (the round\'s case)', "cp -l .claude/policies.yaml src/p.yaml && echo 'version: 1' > src/p.yaml", []],
    ['a hard link of the settings, by cp --link', 'cp --link .claude/settings.json src/s.json', []],
    ['a symlink to the settings, by cp -s', 'cp -s PROJECT/.claude/settings.json src/s.json', []],
    ['a symlink made with ln -t, whose text is read from its folder', 'ln -s -t src ../.claude/policies.yaml', []],
    ['a relative symlink moved one folder deeper', 'mv l src/l && echo x > src/l', [symlink('../.claude/policies.yaml', 'l')]],
    ['a relative symlink copied one folder deeper by cp -P', 'cp -P l src/l', [symlink('../.claude/policies.yaml', 'l')]],
    ['a relative symlink copied by cp -a', 'cp -a l src/l', [symlink('../.claude/policies.yaml', 'l')]],
    ['a relative symlink copied by cp -d into a folder', 'cp -d l src/', [symlink('../.claude/policies.yaml', 'l')]],
    ['a symlink inside a folder copied deeper, written in the same command', 'cp -a a/b/d y/x && echo x > y/x/l', [symlink('../../.claude/settings.json', 'a/b/d/l')]],
    ['a hard link of the decision log', 'cp -l .claude/decisions.jsonl src/d && : > src/d', []],
    ['a hard link of the memory journal', 'cp -l .claude/hookpolicy/memory/journal.jsonl src/j', []],
    ['a hard link of a webhook spool record', 'cp -l CACHE/webhook-spool/r1.json src/r.json', []],
    ['hard links of every file in the guard\'s folder, by rsync --link-dest', 'rsync -a --link-dest=PROJECT/.claude /tmp/empty/ src/copy/', []],
  ])('denies making %s (before: the destination alone was judged: no decision)', (_name, command, setups) => {
    const resolved = command.replace(/PROJECT/g, project.dir).replace(/CACHE/g, project.cacheDir);
    expect(decide(bash(resolved, 'ba'), setups)).toBe('deny');
    expect(decide(bash(resolved))).toBe('deny');
  });

  const writeTo = (tool: string, file: string) => ({
    hook_event_name: 'PreToolUse', session_id: 's', agent_id: 'a1', agent_type: 'ba', tool_name: tool,
    tool_input: tool === 'NotebookEdit' ? { notebook_path: file, new_source: 'x' } : tool === 'MultiEdit' ? { file_path: file, edits: [{ old_string: 'a', new_string: 'b' }] }
      : tool === 'Edit' ? { file_path: file, old_string: 'a', new_string: 'b' } : { file_path: file, content: 'version: 1\n' },
  });

  it.each(['Write', 'Edit', 'MultiEdit', 'NotebookEdit'])('denies a %s to a file that already is a hard link of the policy (before: no decision)', (tool) => {
    expect(decide(writeTo(tool, project.file('src/p.yaml')), [hardLink('.claude/policies.yaml', 'src/p.yaml')])).toBe('deny');
  });

  it.each<[string, string, Setup[]]>([
    ['a hard link of the policy', "echo 'version: 1' > src/p.yaml", [hardLink('.claude/policies.yaml', 'src/p.yaml')]],
    ['a hard link of the decision log, emptied', ': > src/d', [hardLink('.claude/decisions.jsonl', 'src/d')]],
    ['a hard link of the memory journal, appended to', 'echo \'{"kind":"summary"}\' >> src/j', [hardLink('.claude/hookpolicy/memory/journal.jsonl', 'src/j')]],
    ['a hard link of a webhook spool record', 'echo \'{"url":"https://x"}\' > src/r.json', [(p) => hardLink(path.join(p.cacheDir, 'webhook-spool', 'r1.json'), 'src/r.json')(p)]],
  ])('denies a Bash write to %s made earlier (before: no decision)', (_name, command, setups) => {
    expect(decide(bash(command, 'ba'), setups)).toBe('deny');
  });

  it('denies a write to the file a guarded name links to (settings kept in a dotfiles folder), and says nothing of a file with one name', () => {
    const dotfiles = fs.mkdtempSync(path.join(path.dirname(project.dir), 'dotfiles-'));
    try {
      const real = path.join(dotfiles, 'claude-settings.json');
      fs.writeFileSync(real, '{}\n');
      const settings = project.file('.claude/settings.json');
      const kept = fs.readFileSync(settings);
      fs.rmSync(settings);
      fs.symlinkSync(real, settings);
      try {
        expect(decide(writeTo('Write', real))).toBe('deny');
        expect(decide(bash(`echo '{"disableAllHooks":true}' > ${real}`, 'ba'))).toBe('deny');
      } finally {
        fs.rmSync(settings);
        fs.writeFileSync(settings, kept);
      }
    } finally {
      fs.rmSync(dotfiles, { recursive: true, force: true });
    }
  });

  it('keeps denying a Write through a symlink into the guard, or through a folder that is one (held before)', () => {
    expect(decide(writeTo('Write', project.file('src/p.yaml')), [symlink('../.claude/policies.yaml', 'src/p.yaml')])).toBe('deny');
    expect(decide(writeTo('Write', project.file('src/c/policies.yaml')), [symlink('../.claude', 'src/c')])).toBe('deny');
  });

  it('says a guarded file has other names, on stderr and in the decision log', () => {
    const r = (() => {
      hardLink('.claude/policies.yaml', 'src/p.yaml')(project);
      made.push(project.file('src/p.yaml'));
      return project.run({ ...writeTo('Write', project.file('src/app.ts')), cwd: project.dir });
    })();
    expect(r.json).toEqual({ systemMessage: expect.stringMatching(/^hookpolicy: warning guard-linked: /) });
    // As docs/diagnostics.md#guard-linked shows it.
    expect(r.stderr).toContain('hookpolicy: warning guard-linked: .claude/policies.yaml has 2 names (hard links): a write through another name changes it. hookpolicy reads the names it finds as the file itself; remove the others (find / -xdev -samefile .claude/policies.yaml)\n');
    // A recorded decision carries it.
    expect(project.run({ ...writeTo('Write', project.file('src/p.yaml')), cwd: project.dir }).json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    const last = project.readJsonl('.claude/decisions.jsonl').at(-1);
    expect(last?.errors).toEqual([expect.stringMatching(/guard-linked/)]);
  });

  it.each([
    ['nocaseglob', 'shopt -s nocaseglob; rm .[C]LAUDE/POLICIES.YAM[L]'],
    ['dotglob', 'shopt -s dotglob; mv -- ?claude x'],
    ['globstar and dotglob', 'shopt -s globstar dotglob; rm **/settings.json'],
    ['extglob', 'shopt -s extglob\nrm .claude/@(policies|nothing).yaml'],
    ['GLOBIGNORE', 'GLOBIGNORE=x; mv -- ?claude x'],
    ['a nested shell\'s -O dotglob', 'bash -O dotglob -c "rm -rf ?claude"'],
    ['an option set in a branch', 'if true; then shopt -s dotglob; fi; rm -rf ?claude'],
  ])('denies a pattern read with %s as bash reads it (before: read with bash\'s defaults: no decision, or ask)', (_name, command) => {
    expect(decide(bash(command, 'ba'))).toBe('deny');
    expect(decide(bash(command))).toBe('deny');
  });

  it('leaves ordinary links, copies and moves exactly as before: no new ask or deny', () => {
    const quiet: Array<[string, Setup[]]> = [
      ['cp -a src dist', []],
      ['cp -r src lib && echo x > lib/out.txt', []],
      ['ln -s ../shared node_modules/x', []],
      ['cp -l src/app.ts src/b.ts', []],
      ['mv src/l src/m', [symlink('app.ts', 'src/l')]],
      ['cp -P src/l src/m', [symlink('app.ts', 'src/l')]],
      ['echo x > src/b.ts', [hardLink('src/app.ts', 'src/b.ts')]],
      ['shopt -s dotglob; rm -rf dist/*', []],
      ['shopt -s globstar; ls **/*.ts > files.txt', []],
    ];
    for (const [command, setups] of quiet) {
      expect({ command, decision: decide(bash(command, 'ba'), setups) }).toEqual({ command, decision: undefined });
      for (const p of made) fs.rmSync(p, { recursive: true, force: true });
      made = [];
    }
    expect(decide(writeTo('Write', project.file('src/b.ts')), [hardLink('src/app.ts', 'src/b.ts')])).toBeUndefined();
    expect(decide(writeTo('Write', project.file('src/app.ts')))).toBeUndefined();
  });
});

describe('second names through the policy server (http mode)', () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject(TEAM, { '.claude/settings.json': '{}\n', 'src/app.ts': '' });
    fs.linkSync(project.file('.claude/policies.yaml'), project.file('src/p.yaml'));
  });
  afterAll(() => project.remove());

  it('denies the round\'s case, a Write to a hard link made earlier and a pattern read with nocaseglob, and leaves an ordinary write alone (before: no decision)', async () => {
    const server = await startPolicyServer({ projectDir: project.dir, cacheDir: project.cacheDir });
    try {
      const decision = async (event: Record<string, unknown>) => {
        const r = await server.post({ ...event, cwd: project.dir });
        return r.body === '' || r.body === '{}' ? undefined : (JSON.parse(r.body) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision;
      };
      const write = (file: string) => ({ hook_event_name: 'PreToolUse', session_id: 's', agent_id: 'a1', agent_type: 'ba', tool_name: 'Write', tool_input: { file_path: project.file(file), content: 'x' } });
      expect(await decision(bash("cp -l .claude/policies.yaml src/q.yaml && echo 'version: 1' > src/q.yaml", 'ba'))).toBe('deny');
      expect(await decision(write('src/p.yaml'))).toBe('deny');
      expect(await decision(bash('shopt -s nocaseglob; rm .[C]LAUDE/POLICIES.YAM[L]', 'ba'))).toBe('deny');
      expect(await decision(write('src/app.ts'))).toBeUndefined();
    } finally {
      await server.stop();
    }
  }, 60_000);
});

/** Every path under `dir` (links not followed), for undoing a case's setup. */
function listAll(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    out.push(full);
    if (entry.isDirectory() && !entry.isSymbolicLink()) out.push(...listAll(full));
  }
  return out;
}
