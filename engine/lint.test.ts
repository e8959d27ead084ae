import { DIAGNOSTIC_CODES } from './diagnostics';
import { LINT_CHECKS, lintPolicy, lintSources, sortDiagnostics } from './lint';
import { memoryReader } from './load/memory-reader';

const at = (d: { file?: string; line?: number; column?: number; code: string }) => `${d.file}:${d.line}:${d.column} ${d.code}`;

describe('lintSources', () => {
  it('passes load, schema and compile diagnostics through, with the lint checks, sorted', () => {
    const reader = memoryReader({
      'p.yaml': 'version: 1\ninclude: [./team.yaml, missing-pack]\nrules:\n  - { id: a, on: PreTool, deny: x }\n  - { id: b, on: SubagentStart, block: x }\n',
      'team.yaml': 'version: 1\nrules:\n  - id: t\n    on: Stop\n    tools: Bash\n    block: x\n',
    });
    expect(lintSources(['p.yaml'], reader).diagnostics.map(at)).toEqual([
      'p.yaml:2:24 include-not-found',
      'p.yaml:4:18 unknown-event',
      'p.yaml:5:33 outcome-impossible',
      'team.yaml:4:9 rule-unreachable',
    ]);
  });

  it('orders included rules before the including file for shadowing', () => {
    const reader = memoryReader({
      'p.yaml': 'version: 1\ninclude: [./base.yaml]\nrules:\n  - { id: mine, on: Stop, block: y }\n',
      'base.yaml': 'version: 1\nrules:\n  - { id: base, on: Stop, block: x }\n',
    });
    expect(lintSources(['p.yaml'], reader).diagnostics.map(at)).toEqual(['p.yaml:4:11 rule-shadowed']);
  });

  it('does not call a rule shadowed when a bypass can turn the earlier rule off alone', () => {
    const reader = memoryReader({
      'p.yaml': 'version: 1\ninclude: [./base.yaml]\nrules:\n  - { id: mine, on: Stop, block: y }\n',
      'base.yaml': 'version: 1\nsettings: { bypass: { env: BASE_OFF } }\nrules:\n  - { id: base, on: Stop, block: x }\n',
    });
    expect(lintSources(['p.yaml'], reader).diagnostics.map(at)).toEqual([]);
  });
});

describe('shipped packs', () => {
  it("keeps a pack's warnings out of the user's report, and its errors in", () => {
    const reader = memoryReader({
      'p.yaml': 'version: 1\ninclude: [guard]\nrules:\n  - { id: mine, on: PreToolUse, tools: Bash, command: "(a+)+$", deny: x }\n',
      '/packs/guard.yaml': 'version: 1\nrules:\n  - { id: slow, on: PreToolUse, tools: Bash, command: "(b+)+$", deny: y }\n  - { id: bad, on: SubagentStart, block: z }\n',
    }, { guard: '/packs/guard.yaml' });
    expect(lintSources(['p.yaml'], reader).diagnostics.map(at)).toEqual([
      '/packs/guard.yaml:4:35 outcome-impossible',
      'p.yaml:4:55 regex-unsafe',
    ]);
  });
});

describe('lintPolicy', () => {
  it('is empty for no files', () => {
    expect(lintPolicy([], null, {})).toEqual([]);
  });
});

describe('sortDiagnostics', () => {
  it('sorts by file, line, column, code', () => {
    const list = [
      { code: 'b', severity: 'error' as const, message: '', file: 'y', line: 1, column: 1 },
      { code: 'a', severity: 'error' as const, message: '', file: 'x', line: 2, column: 5 },
      { code: 'a', severity: 'error' as const, message: '', file: 'x', line: 2, column: 1 },
      { code: 'c', severity: 'error' as const, message: '' },
    ];
    expect(sortDiagnostics(list).map(at)).toEqual(['undefined:undefined:undefined c', 'x:2:1 a', 'x:2:5 a', 'y:1:1 b']);
  });
});

describe('LINT_CHECKS', () => {
  it.each(LINT_CHECKS.map((c) => [c.id, c] as const))('%s is a known code with a docs anchor and messages', (id, check) => {
    expect(Object.prototype.hasOwnProperty.call(DIAGNOSTIC_CODES, id)).toBe(true);
    expect(check.docs).toBe(`docs/diagnostics.md#${id}`);
    expect(Object.keys(check.messages).length).toBeGreaterThan(0);
  });

  it('has one check per code', () => {
    const ids = LINT_CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
