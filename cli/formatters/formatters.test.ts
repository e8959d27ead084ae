import * as path from 'path';
import type { Diagnostic } from '../../engine/types';
import { formatGithub } from './github';
import { formatJson } from './json';
import { formatSarif } from './sarif';
import { formatStylish } from './stylish';
import { diagnosticHelpUri } from './docs-url';
import { displayPath } from './format';

const cwd = path.resolve('/proj');
const file = path.join(cwd, '.claude', 'policies.yaml');
const diagnostics: Diagnostic[] = [
  { code: 'outcome-impossible', severity: 'error', message: 'Rule "r": block has no effect on SubagentStart', file, line: 4, column: 9, hint: 'SubagentStart supports: context' },
  { code: 'rule-shadowed', severity: 'warning', message: 'Rule "b" never decides anything', file, line: 12, column: 11 },
  { code: 'settings-invalid', severity: 'error', message: 'a, b: 50% done\nnext', file: path.join(cwd, 's.json'), line: 1, column: 1 },
];

describe('stylish', () => {
  it('groups per file, aligns columns, shows hints and a summary', () => {
    expect(formatStylish(diagnostics, { cwd })).toBe([
      '.claude/policies.yaml',
      '  4:9    error    Rule "r": block has no effect on SubagentStart  outcome-impossible',
      '                  hint: SubagentStart supports: context',
      '  12:11  warning  Rule "b" never decides anything                 rule-shadowed',
      '',
      's.json',
      '  1:1  error  a, b: 50% done next  settings-invalid',
      '',
      '3 problems (2 errors, 1 warning)',
      '',
    ].join('\n'));
  });

  it('prints nothing when clean, and counts infos', () => {
    expect(formatStylish([], { cwd })).toBe('');
    const info: Diagnostic = { code: 'message-user-only', severity: 'info', message: 'm', file, line: 1, column: 1 };
    expect(formatStylish([info], { cwd }).split('\n').slice(-2)[0]).toBe('1 problem (0 errors, 0 warnings, 1 info)');
  });
});

describe('stylish in colour', () => {
  const coloured = formatStylish(diagnostics, { cwd, color: true });

  it('colours severities, dims positions, codes and hints, and keeps the columns', () => {
    expect(coloured).toContain('\u001b[31merror\u001b[39m    ');
    expect(coloured).toContain('\u001b[33mwarning\u001b[39m  ');
    expect(coloured).toContain('\u001b[2moutcome-impossible\u001b[22m');
    expect(coloured).toContain('\u001b[2mhint: SubagentStart supports: context\u001b[22m');
    expect(coloured).toContain('\u001b[4m.claude/policies.yaml\u001b[24m');
    expect(coloured.split('\n').slice(-2)[0]).toBe('\u001b[1m\u001b[31m3 problems (2 errors, 1 warning)\u001b[39m\u001b[22m');
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(formatStylish(diagnostics, { cwd }));
  });

  it('has no colour unless asked', () => {
    expect(formatStylish(diagnostics, { cwd })).not.toMatch(/\u001b/);
  });
});

describe('json', () => {
  it('lists diagnostics with relative files and docs links', () => {
    expect(JSON.parse(formatJson(diagnostics.slice(0, 1), { cwd }))).toEqual([{
      code: 'outcome-impossible',
      severity: 'error',
      message: 'Rule "r": block has no effect on SubagentStart',
      file: '.claude/policies.yaml',
      line: 4,
      column: 9,
      hint: 'SubagentStart supports: context',
      docs: 'docs/diagnostics.md#outcome-impossible',
    }]);
  });
});

describe('github', () => {
  it('writes one workflow command per diagnostic, escaped', () => {
    expect(formatGithub(diagnostics, { cwd })).toBe([
      '::error file=.claude/policies.yaml,line=4,col=9,title=outcome-impossible::Rule "r": block has no effect on SubagentStart (SubagentStart supports: context)',
      '::warning file=.claude/policies.yaml,line=12,col=11,title=rule-shadowed::Rule "b" never decides anything',
      '::error file=s.json,line=1,col=1,title=settings-invalid::a, b: 50%25 done%0Anext',
      '',
    ].join('\n'));
  });
});

describe('sarif', () => {
  it('is SARIF 2.1.0 with one rule per code and physical locations', () => {
    const log = JSON.parse(formatSarif(diagnostics.slice(0, 2), { cwd, toolVersion: '1.2.3' }));
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].tool.driver).toEqual({
      name: 'hookpolicy',
      version: '1.2.3',
      rules: [
        { id: 'outcome-impossible', shortDescription: { text: expect.any(String) }, helpUri: diagnosticHelpUri('outcome-impossible'), defaultConfiguration: { level: 'error' } },
        { id: 'rule-shadowed', shortDescription: { text: expect.any(String) }, helpUri: diagnosticHelpUri('rule-shadowed'), defaultConfiguration: { level: 'warning' } },
      ],
    });
    expect(log.runs[0].results[1]).toEqual({
      ruleId: 'rule-shadowed',
      ruleIndex: 1,
      level: 'warning',
      message: { text: 'Rule "b" never decides anything' },
      locations: [{ physicalLocation: { artifactLocation: { uri: '.claude/policies.yaml' }, region: { startLine: 12, startColumn: 11 } } }],
    });
  });
});

describe('displayPath', () => {
  it('keeps files outside the working directory absolute', () => {
    expect(displayPath(path.resolve('/elsewhere/p.yaml'), cwd)).toBe(path.resolve('/elsewhere/p.yaml').split(path.sep).join('/'));
    expect(displayPath('rel/p.yaml', cwd)).toBe('rel/p.yaml');
  });
});
