import { parseSuiteText } from './parse-suite';

const FILE = '/proj/policies/tests/x.test.yaml';

function codes(text: string) {
  return parseSuiteText(FILE, text).diagnostics.map((d) => [d.code, d.line, d.column, d.hint ?? null]);
}

describe('parseSuiteText', () => {
  it('builds the suite with resolved paths, matchers and positions', () => {
    const text = [
      'policy: ../ai-team.yaml',                                     // 1
      'env: { A: "1" }',                                             // 2
      'files: { "a/b.md": { size: 3 } }',                            // 3
      'cases:',                                                      // 4
      '  - name: one',                                               // 5
      '    event: { event: PreToolUse, tool: Write, agent: lynch }', // 6
      '    expect:',                                                 // 7
      '      outcome: deny',                                         // 8
      '      message: reviewer',                                     // 9
      '      context: { regex: "^GC" }',                             // 10
      '  - name: two',                                               // 11
      '    event_file: ../fixtures/e.json',                          // 12
      '    env: { B: "2" }',                                         // 13
      '    expect: { stdout: null }',                                // 14
      '  - name: three',                                             // 15
      '    event_json: { hook_event_name: Stop }',                   // 16
      '    expect: {}',                                              // 17
    ].join('\n');
    const { suite, diagnostics } = parseSuiteText(FILE, text);
    expect(diagnostics).toEqual([]);
    expect(suite).toMatchObject({ policies: ['/proj/policies/ai-team.yaml'], env: { A: '1' }, files: { 'a/b.md': { size: 3 } } });
    const [one, two, three] = suite!.cases;
    expect(one).toMatchObject({
      name: 'one',
      location: { file: FILE, line: 5, column: 5 },
      event: { kind: 'shorthand', shorthand: { event: 'PreToolUse', tool: 'Write', agent: 'lynch' } },
      expect: { outcome: 'deny', message: { contains: 'reviewer' }, context: { regex: '^GC' } },
      expectLocations: { outcome: { line: 8, column: 7 }, message: { line: 9, column: 7 } },
    });
    expect(two).toMatchObject({ event: { kind: 'file', path: '/proj/policies/fixtures/e.json' }, env: { B: '2' }, expect: { stdout: null } });
    expect(three.event).toEqual({ kind: 'json', event: { hook_event_name: 'Stop' } });
  });

  it('accepts a list of policies', () => {
    expect(parseSuiteText(FILE, 'policy: [a.yaml, ../b.yaml]\ncases: []\n').suite!.policies).toEqual(['/proj/policies/tests/a.yaml', '/proj/policies/b.yaml']);
  });

  it.each<[string, string, Array<[string, number, number, string | null]>]>([
    ['an unknown key, with a suggestion', 'cases:\n  - name: a\n    event: { event: Stop }\n    expect: { outcom: deny }\n', [['schema-unknown-key', 4, 15, 'did you mean "outcome"?']]],
    ['a missing expect', 'cases:\n  - name: a\n    event: { event: Stop }\n', [['schema-required', 2, 5, null]]],
    ['a bad outcome', 'cases:\n  - name: a\n    event: { event: Stop }\n    expect: { outcome: maybe }\n', [['schema-enum', 4, 24, null]]],
    ['a wrongly typed matcher', 'cases:\n  - name: a\n    event: { event: Stop }\n    expect: { message: 3 }\n', [['schema-type', 4, 24, null]]],
    ['a case without an event', 'cases:\n  - name: a\n    expect: {}\n', [['schema-required', 2, 5, null]]],
    ['a case with two events', 'cases:\n  - name: a\n    event: { event: Stop }\n    event_json: { hook_event_name: Stop }\n    expect: {}\n', [['schema-invalid', 4, 5, null]]],
    ['an invalid regex', 'cases:\n  - name: a\n    event: { event: Stop }\n    expect: { message: { regex: "(" } }\n', [['invalid-regex', 4, 33, null]]],
    ['a file outside the project', 'files: { "../x": { size: 1 } }\ncases: []\n', [['schema-invalid', 1, 10, null]]],
    ['YAML syntax', 'cases: [\n', [['yaml-syntax', 2, 1, null]]],
    ['a duplicate key', 'cases: []\ncases: []\n', [['yaml-duplicate-key', 2, 1, 'the later value would silently replace the earlier one']]],
  ])('reports %s at its position', (_name, text, expected) => {
    expect(codes(text)).toEqual(expected);
    expect(parseSuiteText(FILE, text).suite).toBeNull();
  });

  it('reports an empty suite', () => {
    expect(codes('')).toEqual([['schema-required', 1, 1, null]]);
  });
});
