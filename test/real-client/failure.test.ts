/**
 * When the policy cannot be loaded: `on_error: closed` refuses the tool call in the real
 * client, and the model reads the problem; `on_error: open` lets it through with the
 * problem shown to the user.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { userSightings } from './observe';
import { say, tools, type Scenario } from './scenario';
import { describeRealClient, runCase, SESSION_TIMEOUT_MS } from './suite';
import { toolResult } from './transcript';

const policy = (onError: string) => `version: 1
settings: { on_error: ${onError} }
rules:
  - id: no-secrets
    on: PreToolUse
    tools: Write
    paths: { deny: ["secret/**"] }
    deny: "secret/ is off limits"
`;

/** A schema error the team might make: `tool:` for `tools:`. */
function breakPolicy(projectDir: string): void {
  const file = path.join(projectDir, '.claude', 'policies.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('tools: Write', 'tool: Write'));
}

const writeOpen = (dir: string): Scenario => ({
  main: [tools({ name: 'Write', input: { file_path: path.join(dir, 'open.txt'), content: 'x\n' } }), say('done')],
});

describeRealClient('a broken policy', () => {
  it('on_error: closed refuses the call, and the model reads which file and line are wrong', () => {
    const { project, session } = runCase({
      policy: policy('closed'),
      beforeSession: (p) => breakPolicy(p.projectDir),
      scenario: writeOpen,
    });
    expect(project.exists('open.txt')).toBe(false);
    const result = toolResult(session.requests, 'toolu_m_0_0');
    expect(result?.isError).toBe(true);
    expect(result?.text).toMatch(/^PreToolUse:Write hook error: /);
    expect(result?.text).toMatch(/policies\.yaml:\d+:\d+/);
  }, SESSION_TIMEOUT_MS);

  it('on_error: open lets the call through and shows the problem to the user, not the model', () => {
    const { project, session } = runCase({
      policy: policy('open'),
      beforeSession: (p) => breakPolicy(p.projectDir),
      scenario: writeOpen,
    });
    expect(project.exists('open.txt')).toBe(true);
    expect(toolResult(session.requests, 'toolu_m_0_0')?.isError).toBe(false);
    expect(userSightings(session.messages, 'policies.yaml').map((s) => s.where)).toContain('system/informational');
  }, SESSION_TIMEOUT_MS);
});
