/**
 * Issue 12, section 3: an allow rule approves a call only when its paths cover every path
 * the call touches, and the decision log lists every touched path. Through the built runner.
 */
import * as fs from 'fs';
import { makeProject, type TempProject } from '../support/run-hook';
import { outcome, pre } from '../support/pre-tool-use';

const LOG = '.claude/decisions.jsonl';

describe('an allow rule approves only what it covers, and the log lists every path', () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject([
      'version: 1',
      'settings:',
      `  log: { file: ${LOG}, record: [deny, ask, allow, none] }`,
      'rules:',
      '  - id: approve-allowed',
      '    on: PreToolUse',
      '    tools: Bash|Write',
      '    paths: { deny: ["allowed/**"] }',
      '    allow: "allowed/ is free to write"',
      '',
    ].join('\n'));
  });
  afterAll(() => project.remove());

  it('a command that also writes outside the covered paths is not approved', () => {
    const before = project.readJsonl(LOG).length;
    const command = 'mkdir -p allowed && echo a > allowed/c.txt && echo b > outside.txt';
    expect(outcome(pre('Bash', { command }, project))).toBe('none');
    const log = project.readJsonl(LOG).slice(before);
    expect(log).toEqual([expect.objectContaining({ outcome: 'none', rules: [], paths: ['allowed', 'allowed/c.txt', 'outside.txt'] })]);
  });

  it('a command that writes only covered paths is approved, and every path is logged', () => {
    const before = project.readJsonl(LOG).length;
    expect(outcome(pre('Bash', { command: 'mkdir -p allowed/sub && echo a > allowed/c.txt' }, project))).toBe('allow');
    expect(project.readJsonl(LOG).slice(before)).toEqual([expect.objectContaining({ outcome: 'allow', paths: ['allowed/sub', 'allowed/c.txt'] })]);
  });

  it('a command whose writes cannot all be known is not approved', () => {
    expect(outcome(pre('Bash', { command: 'echo a > allowed/c.txt && npm run gen' }, project))).toBe('none');
  });

  it('a symlink out of the covered folder is not approved', () => {
    fs.mkdirSync(project.file('allowed'), { recursive: true });
    fs.symlinkSync('../src', project.file('allowed/link'));
    expect(outcome(pre('Write', { file_path: project.file('allowed/link/x.ts'), content: 'x' }, project))).toBe('none');
    expect(outcome(pre('Write', { file_path: project.file('ALLOWED/x.ts'), content: 'x' }, project))).toBe('none');
    expect(outcome(pre('Write', { file_path: project.file('allowed/x.ts'), content: 'x' }, project))).toBe('allow');
  });
});
