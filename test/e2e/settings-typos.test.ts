/**
 * A typo in the settings or the includes keeps the rest of the policy enforcing (issue
 * 31): `on_eror: closed` and `include: [securty-guard]` had left out the whole file, its
 * rules and its packs. When nothing can be read, a policy whose last good build said
 * on_error: closed stays closed. Through the built runner.
 */
import { makeProject, type TempProject } from '../support/run-hook';

const write = (project: TempProject, file: string) => ({
  hook_event_name: 'PreToolUse', session_id: 's', cwd: project.dir, tool_name: 'Write', tool_input: { file_path: project.file(file), content: 'x' }, tool_use_id: 't',
});
type Out = { systemMessage?: string; hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } } | null;

describe('settings typos do not switch the policy off', () => {
  test('a misspelt settings key: the packs still deny, and the typo is said at every event', () => {
    const project = makeProject('version: 1\ninclude: [security-guard]\nsettings:\n  on_eror: closed\n');
    try {
      const env = project.run(write(project, '.env')).json as Out;
      expect(env?.hookSpecificOutput?.permissionDecision).toBe('deny');
      expect(env?.systemMessage).toContain('Unknown key "on_eror" in settings (did you mean "on_error"?) (settings.on_eror was left out: failing open)');
      const src = project.run(write(project, 'src/a.ts')).json as Out;
      expect(src?.hookSpecificOutput).toBeUndefined();
      expect(src?.systemMessage).toContain('settings.on_eror was left out: failing open');
    } finally {
      project.remove();
    }
  });

  test('a misspelt pack in include: the file\'s own rules and other packs still enforce; its on_error decides the rest', () => {
    const project = makeProject('version: 1\ninclude: [securty-guard]\nsettings: { on_error: open }\nrules:\n  - id: no-src\n    on: PreToolUse\n    tools: Write\n    paths: { deny: ["src/**"] }\n    deny: "not src"\n');
    try {
      const src = project.run(write(project, 'src/a.ts')).json as Out;
      expect(src?.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'not src' });
      expect(src?.systemMessage).toContain('No shipped pack named "securty-guard"');
      expect(src?.systemMessage).toContain('include securty-guard was left out: failing open');
    } finally {
      project.remove();
    }
  });

  test('an on_error that cannot be read is closed', () => {
    const project = makeProject('version: 1\ninclude: [security-guard]\nsettings: { on_error: clsoed }\n');
    try {
      const src = project.run(write(project, 'src/a.ts')).json as Out;
      expect(src?.hookSpecificOutput?.permissionDecision).toBe('deny');
      expect(src?.hookSpecificOutput?.permissionDecisionReason).toContain('settings.on_error was left out: failing closed');
    } finally {
      project.remove();
    }
  });

  test('a top file that cannot be read: closed when its last good build said closed', () => {
    const project = makeProject('version: 1\ninclude: [security-guard]\nsettings: { on_error: closed }\n');
    try {
      expect((project.run(write(project, 'src/a.ts')).json as Out)?.hookSpecificOutput).toBeUndefined();
      project.write('.claude/policies.yaml', 'version: 1\ninclude: [security-guard\nsettings: { on_error: open }\n');
      const broken = project.run(write(project, 'src/a.ts')).json as Out;
      expect(broken?.hookSpecificOutput?.permissionDecision).toBe('deny');
      expect(broken?.hookSpecificOutput?.permissionDecisionReason).toContain('error yaml-syntax');
      expect(broken?.hookSpecificOutput?.permissionDecisionReason).toContain('failing closed');
    } finally {
      project.remove();
    }
  });
});
