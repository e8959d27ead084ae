/**
 * $POLICY_CONFIG chooses the policy files from the environment, which a session can set for
 * its hooks (issue 29): naming an empty policy switched the team's off, unseen. The team's
 * policy now decides unless its top file allows the variable (settings.policy_config:
 * allow), and every event it is ignored says so on stderr. Through the built runner, and
 * through the policy server.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeProject, REPO_ROOT, type RunHookResult, type TempProject } from '../support/run-hook';
import { startPolicyServer } from '../support/policy-server';
import { runCli } from '../support/run-cli';

const TEAM = 'version: 1\nrules:\n  - id: no-env\n    on: PreToolUse\n    tools: Write\n    paths: { deny: [".env"] }\n    deny: "no .env"\n';
const EMPTY = 'version: 1\nrules: []\n';
const CI = 'version: 1\nrules:\n  - id: ci-no-docs\n    on: PreToolUse\n    tools: Write\n    paths: { deny: ["docs/**"] }\n    deny: "CI writes no docs"\n';

const write = (project: TempProject, file: string) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd: project.dir, tool_name: 'Write', tool_input: { file_path: project.file(file), content: 'x' } });
const reasonOf = (r: RunHookResult) => (r.json as { hookSpecificOutput?: { permissionDecisionReason?: string } } | null)?.hookSpecificOutput?.permissionDecisionReason ?? null;
const IGNORED = /^hookpolicy: warning policy-config-ignored: \$POLICY_CONFIG names (.*), but the team's policy \.claude\/policies\.yaml does not let it replace it: ignored \(the team allows it in its top file: settings\.policy_config: allow\)$/m;

/** The ```yaml example of docs/language.md's section on $POLICY_CONFIG. */
function docExample(): string {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'language.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Policy files from the environment'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/language.md has no yaml example under "Policy files from the environment"');
  return block;
}

describe('$POLICY_CONFIG against the team\'s policy', () => {
  let project: TempProject;
  beforeEach(() => {
    project = makeProject(TEAM, { 'empty.yaml': EMPTY, 'ci.yaml': CI });
  });
  afterEach(() => project.remove());

  it.each([
    ['an empty policy in the project', () => 'empty.yaml'],
    ['an empty policy outside it, by absolute path', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-elsewhere-'));
      fs.writeFileSync(path.join(dir, 'p.yaml'), EMPTY);
      return path.join(dir, 'p.yaml');
    }],
    ['a list of files', () => ['empty.yaml', 'ci.yaml'].join(path.delimiter)],
    ['a file that does not exist', () => 'missing.yaml'],
  ])('naming %s does not replace it: the team\'s deny holds, and stderr says the variable was ignored, at every event', (_name, named) => {
    const env = { POLICY_CONFIG: named() };
    for (let i = 0; i < 2; i++) {
      const r = project.run(write(project, '.env'), { env });
      expect([r.exitCode, reasonOf(r)]).toEqual([0, 'no .env']);
      expect(r.stderr).toMatch(IGNORED);
    }
  });

  it('the warning is the one docs/diagnostics.md shows', () => {
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'diagnostics.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## policy-config-ignored'));
    const example = /```console\n\$ POLICY_CONFIG=ci\.yaml policy hook < event\.json\n(.*)\n```/.exec(section)?.[1];
    const r = project.run(write(project, '.env'), { env: { POLICY_CONFIG: 'ci.yaml' } });
    expect(r.stderr).toBe(`${example}\n`);
  });

  it('an included file cannot allow it: only the team\'s top file can', () => {
    project.write('.claude/policies.yaml', `${TEAM}include: [inc.yaml]\n`);
    project.write('.claude/inc.yaml', 'version: 1\nsettings:\n  policy_config: allow\n');
    const r = project.run(write(project, '.env'), { env: { POLICY_CONFIG: 'empty.yaml' } });
    expect([reasonOf(r), IGNORED.test(r.stderr)]).toEqual(['no .env', true]);
  });

  it('allowed by the team\'s top file (the example of docs/language.md), it replaces the policy, and nothing is said', () => {
    project.write('.claude/policies.yaml', `${TEAM}${docExample()}`);
    const env = { POLICY_CONFIG: 'ci.yaml' };
    const docs = project.run(write(project, 'docs/a.md'), { env });
    expect([docs.exitCode, reasonOf(docs), docs.stderr]).toEqual([0, 'CI writes no docs', '']);
    const dotEnv = project.run(write(project, '.env'), { env });
    expect([dotEnv.exitCode, dotEnv.stdout, dotEnv.stderr]).toEqual([0, '', '']);
    // Without the variable, the team's policy as always.
    expect(reasonOf(project.run(write(project, '.env')))).toBe('no .env');
  });

  it('a project with no policy file of its own takes $POLICY_CONFIG\'s, as before: there is nothing to replace', () => {
    fs.rmSync(project.file('.claude/policies.yaml'));
    const r = project.run(write(project, 'docs/a.md'), { env: { POLICY_CONFIG: 'ci.yaml' } });
    expect([reasonOf(r), r.stderr]).toEqual(['CI writes no docs', '']);
  });

  it('policy explain, lint and test choose as the runner: the team\'s policy with the warning, or $POLICY_CONFIG\'s where the team allows it', () => {
    const event = project.write('event.json', JSON.stringify(write(project, '.env')));
    project.write('team.test.yaml', 'cases:\n  - name: env\n    event: { event: PreToolUse, tool: Write, path: .env }\n    expect: { outcome: deny }\n');
    const cli = (args: string[]) => runCli(args, { cwd: project.dir, env: { POLICY_CONFIG: 'empty.yaml', CLAUDE_PROJECT_DIR: project.dir, HOOKPOLICY_CACHE_DIR: project.cacheDir } });
    const warned = /warning policy-config-ignored: \$POLICY_CONFIG names empty\.yaml/;
    const explained = cli(['explain', event]);
    expect([explained.code, /Decision: deny/.test(explained.stdout), warned.test(explained.stderr)]).toEqual([0, true, true]);
    const linted = cli(['lint', '--no-settings', '--format', 'json']);
    expect((JSON.parse(linted.stdout) as Array<{ code: string }>).map((d) => d.code)).toEqual(['policy-config-ignored']);
    const tested = cli(['test', 'team.test.yaml']);
    expect(tested.code).toBe(0);
    // Allowed: the empty policy is the one they read.
    project.write('.claude/policies.yaml', `${TEAM}${docExample()}`);
    const allowed = cli(['explain', event]);
    expect([/Decision: deny/.test(allowed.stdout), warned.test(allowed.stderr)]).toEqual([false, false]);
    expect(JSON.parse(cli(['lint', '--no-settings', '--format', 'json']).stdout)).toEqual([]);
    expect(cli(['test', 'team.test.yaml']).code).toBe(1);
  });

  it('the policy server (http mode) started with it answers with the team\'s policy', async () => {
    const server = await startPolicyServer({ projectDir: project.dir, cacheDir: project.cacheDir, env: { POLICY_CONFIG: 'empty.yaml' } });
    try {
      const r = await server.post(write(project, '.env'));
      expect(JSON.parse(r.body)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no .env' } });
    } finally {
      await server.stop();
    }
  });
});
