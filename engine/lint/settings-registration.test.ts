/**
 * settings-missing, settings-twice and settings-runner-missing: what lint says about how
 * (and whether) the project's settings files register the runner.
 */
import { diagnosticBlock, diagnosticExample } from '../../test/support/doc-sections';
import { lintSources } from '../lint';
import { memoryReader } from '../load/memory-reader';
import { parseClaudeSettings, type ClaudeSettings } from './claude-settings';
import type { LintOptions } from './context';

const POLICY = 'version: 1\nrules:\n  - { id: s, on: Stop, block: x }\n';
const runner = (bin: string) => ({ hooks: { Stop: [{ hooks: [{ type: 'command', command: '/usr/bin/env', args: ['-u', 'NODE_EXTRA_CA_CERTS', 'node', bin, 'hook'] }] }] } });
const parsed = (file: string, value: unknown): { file: string; settings: ClaudeSettings } => ({ file, settings: parseClaudeSettings(file, JSON.stringify(value)).settings as ClaudeSettings });

function codes(options: LintOptions, policy = POLICY): string[] {
  const result = lintSources(['p.yaml'], memoryReader({ 'p.yaml': policy }), { settingsFile: 'none', ...options });
  return result.diagnostics.filter((d) => d.code.startsWith('settings-')).map((d) => `${d.line}:${d.column} ${d.code}`);
}

describe('settings-missing', () => {
  it('warns when lint looks for settings and the project has none, at the rules key', () => {
    expect(codes({ settingsChecked: true, settingsSources: [] })).toEqual(['2:1 settings-missing']);
    expect(codes({ settingsChecked: false })).toEqual([]);
    expect(codes({ settingsChecked: true, settingsSources: [] }, 'version: 1\nrules: []\n')).toEqual([]);
  });
});

describe('settings-twice', () => {
  it('warns once per event the runner is registered for in two files', () => {
    const a = parsed('.claude/settings.json', runner('${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs'));
    const b = parsed('.claude/settings.local.json', runner('/opt/hookpolicy/bin/policy.cjs'));
    const merged = { hooks: { Stop: [...a.settings.hooks.Stop, ...b.settings.hooks.Stop] } } as ClaudeSettings;
    const result = lintSources(['p.yaml'], memoryReader({ 'p.yaml': POLICY }), { settings: merged, settingsSources: [a, b], settingsChecked: true });
    const twice = result.diagnostics.filter((d) => d.code === 'settings-twice');
    expect(twice.map((d) => d.message)).toEqual(['The runner is registered for Stop in .claude/settings.json and .claude/settings.local.json: Claude Code runs each entry, so the runner runs 2 times for every Stop event']);
    expect(codes({ settingsSources: [a], settingsChecked: true })).toEqual([]);
  });
});

describe('settings-runner-missing', () => {
  it('reports an entry whose runner (with ${CLAUDE_PROJECT_DIR} read as the project root) or node is gone', () => {
    const present = new Set(['/work/app/node_modules/hookpolicy/bin/policy.cjs', '/usr/bin/env']);
    const options = (bin: string): LintOptions => ({ settingsSources: [parsed('.claude/settings.json', runner(bin))], settingsChecked: true, projectRoot: '/work/app', exists: (f) => present.has(f) });
    expect(codes(options('${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs'))).toEqual([]);
    expect(codes(options('/old/node_modules/hookpolicy/bin/policy.cjs'))).toEqual(['2:1 settings-runner-missing']);
    const gone = lintSources(['p.yaml'], memoryReader({ 'p.yaml': POLICY }), { ...options('${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs'), projectRoot: '/elsewhere' });
    expect(gone.diagnostics.find((d) => d.code === 'settings-runner-missing')?.message).toBe('The runner entry in .claude/settings.json starts ${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs, which does not exist: the events it routes are not checked');
  });
});

describe('the examples of docs/diagnostics.md', () => {
  it('settings-missing: the example policy, with no settings file, gets the warning', () => {
    const result = lintSources(['p.yaml'], memoryReader({ 'p.yaml': diagnosticExample('settings-missing') }), { settingsChecked: true, settingsSources: [] });
    expect(result.diagnostics.map((d) => d.code)).toContain('settings-missing');
  });

  it('settings-twice: the example settings, read as project and local files, get the warning', () => {
    const settings = JSON.parse(diagnosticBlock('settings-twice', 'json')) as Record<string, unknown>;
    const sources = Object.entries(settings).map(([file, value]) => parsed(file, value));
    const result = lintSources(['p.yaml'], memoryReader({ 'p.yaml': diagnosticExample('settings-twice') }), { settingsSources: sources, settingsChecked: true });
    expect(result.diagnostics.map((d) => d.code)).toContain('settings-twice');
  });
});
