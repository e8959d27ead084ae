/**
 * The guard's own files in the real client: a subagent's and the main session's writes to
 * them are refused by the built-in rule; and Claude Code's own deny rules, which init
 * writes for the same files, still refuse them when the hook entry is gone.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { say, tools } from './scenario';
import { describeRealClient, runCase, SESSION_TIMEOUT_MS } from './suite';
import { toolResult } from './transcript';

const POLICY = 'version: 1\nrules: []\n';
const AGENT = '---\nname: tester\ndescription: Writes tests.\ntools: Read, Write, Bash\n---\nYou test.\n';

/** Edits the project's .claude/settings.json in place. */
function withSettings(projectDir: string, edit: (settings: Record<string, unknown>) => void): void {
  const file = path.join(projectDir, '.claude', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(settings);
  fs.writeFileSync(file, JSON.stringify(settings));
}

describeRealClient('self-protection', () => {
  it('the hook alone: a subagent cannot rewrite the settings or the policy, by Write or by Bash; nor can the main session', () => {
    const { project, session } = runCase({
      policy: POLICY,
      files: { '.claude/agents/tester.md': AGENT },
      // Claude Code's own deny rules (init writes them too) would refuse first: take them out to see the hook's answer.
      beforeSession: (p) => withSettings(p.projectDir, (s) => delete s.permissions),
      scenario: (dir) => ({
        main: [
          tools({ name: 'Agent', input: { description: 'test', prompt: 'SUBAGENT-TESTER: go', subagent_type: 'tester', run_in_background: false } }),
          tools({ name: 'Write', input: { file_path: path.join(dir, '.claude', 'policies.yaml'), content: 'version: 1\nrules: []\n# main\n' } }),
          say('done'),
        ],
        subagents: [{
          marker: 'SUBAGENT-TESTER',
          turns: [
            tools({ name: 'Write', input: { file_path: path.join(dir, '.claude', 'settings.local.json'), content: '{ "disableAllHooks": true }' } }),
            tools({ name: 'Bash', input: { command: `sed -i 's/rules/rulez/' .claude/policies.yaml` } }),
            say('tried'),
          ],
        }],
      }),
    });
    expect(project.exists('.claude/settings.local.json')).toBe(false);
    expect(project.read('.claude/policies.yaml')).toBe(POLICY);
    for (const id of ['toolu_s0_0_0', 'toolu_s0_1_0', 'toolu_m_1_0']) {
      expect(toolResult(session.requests, id)).toEqual({ isError: true, text: expect.stringMatching(/hook error: .*is or holds one of hookpolicy's own files/) });
    }
  }, SESSION_TIMEOUT_MS);

  it('a command the parser cannot read that names the guard is asked about (refused under -p), and the CLI that would uninstall the hooks is refused', () => {
    const { project, session } = runCase({
      policy: POLICY,
      beforeSession: (p) => withSettings(p.projectDir, (s) => delete s.permissions),
      scenario: () => ({
        main: [
          tools({ name: 'Bash', input: { command: 'gzip .claude/policies.yaml' } }),
          tools({ name: 'Bash', input: { command: 'npx policy uninstall' } }),
          say('done'),
        ],
      }),
    });
    expect([project.read('.claude/policies.yaml'), project.exists('.claude/policies.yaml.gz')]).toEqual([POLICY, false]);
    expect(Object.keys((JSON.parse(project.read('.claude/settings.json') ?? '{}') as { hooks: object }).hooks)).toContain('PreToolUse');
    expect(toolResult(session.requests, 'toolu_m_0_0')).toEqual({
      isError: true,
      text: 'This Bash command names .claude/policies.yaml, which rule "hookpolicy-self-protection" guards, and what it writes cannot be known (gzip: not a command whose writes are known): approve it only if it leaves that alone.',
    });
    expect(toolResult(session.requests, 'toolu_m_1_0')).toEqual({ isError: true, text: expect.stringMatching(/hook error: .*\.claude\/settings\.json is or holds one of hookpolicy's own files/) });
  }, SESSION_TIMEOUT_MS);

  it('with the hook entries gone, Claude Code\'s own deny rules that init wrote still refuse the write', () => {
    const { project, session } = runCase({
      policy: POLICY,
      beforeSession: (p) => withSettings(p.projectDir, (s) => delete s.hooks),
      scenario: (dir) => ({
        main: [
          tools({ name: 'Write', input: { file_path: path.join(dir, '.claude', 'policies.yaml'), content: 'x\n' } }),
          tools({ name: 'Bash', input: { command: 'echo x > .claude/settings.local.json' } }),
          say('done'),
        ],
      }),
    });
    expect(project.read('.claude/policies.yaml')).toBe(POLICY);
    expect(project.exists('.claude/settings.local.json')).toBe(false);
    expect(toolResult(session.requests, 'toolu_m_0_0')).toEqual({ isError: true, text: '<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>' });
    expect(toolResult(session.requests, 'toolu_m_1_0')?.isError).toBe(true);
  }, SESSION_TIMEOUT_MS);
});
