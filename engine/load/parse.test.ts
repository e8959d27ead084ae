import { parsePolicyText } from '../load';
import type { TextSourceMap } from '../load';

const lines = (...ls: string[]) => ls.join('\n') + '\n';
const pos = (d: { code: string; line?: number; column?: number }) => `${d.code} ${d.line}:${d.column}`;

describe('parsePolicyText diagnostics', () => {
  test('a YAML syntax error is reported at its line:column and leaves doc null', () => {
    const r = parsePolicyText('p.yaml', lines('version: 1', 'rules:', '  - id: a', '    on: [Stop', 'x: 1'));
    expect(r.doc).toBeNull();
    expect(r.diagnostics.map(pos)).toContain('yaml-syntax 5:1');
    expect(r.diagnostics.every((d) => d.code === 'yaml-syntax' && d.file === 'p.yaml')).toBe(true);
    expect(r.diagnostics[0].message).not.toMatch(/at line/);
  });

  test('a duplicate key points at the second key and keeps the document', () => {
    const r = parsePolicyText('p.yaml', lines('version: 1', 'rules:', '  - id: a', '    on: Stop', '    id: b', '    block: x'));
    expect(r.diagnostics.map(pos)).toEqual(['yaml-duplicate-key 5:5']);
    expect(r.diagnostics[0].message).toBe('Duplicate key "id"');
    expect(r.doc).toEqual({ version: 1, rules: [{ id: 'b', on: 'Stop', block: 'x' }] });
  });

  test('a duplicate key is placed at its own pointer; a syntax error at the document', () => {
    const dup = parsePolicyText('p.yaml', lines('version: 1', 'rules:', '  - id: a', '    on: Stop', '    on: SubagentStop', '    block: x'));
    expect(dup.placed.map((p) => [p.diagnostic.code, p.file, p.pointer])).toEqual([['yaml-duplicate-key', 'p.yaml', '/rules/0/on']]);
    const flow = parsePolicyText('p.yaml', lines('settings: { on_error: open, on_error: closed }'));
    expect(flow.placed.map((p) => p.pointer)).toEqual(['/settings/on_error']);
    const syntax = parsePolicyText('p.yaml', lines('version: 1', 'rules: [oops'));
    expect(syntax.placed.map((p) => [p.diagnostic.code, p.pointer])).toEqual(syntax.diagnostics.map((d) => [d.code, '']));
  });

  test('a duplicate key in a flow mapping', () => {
    const r = parsePolicyText('p.yaml', lines('settings: { on_error: open, on_error: closed }'));
    expect(r.diagnostics.map(pos)).toEqual(['yaml-duplicate-key 1:29']);
  });

  test('valid text has no diagnostics; empty text is a null doc', () => {
    expect(parsePolicyText('p.yaml', 'version: 1\n')).toMatchObject({ doc: { version: 1 }, diagnostics: [] });
    expect(parsePolicyText('p.yaml', '# nothing\n')).toMatchObject({ doc: null, diagnostics: [] });
  });
});

describe('SourceMap', () => {
  const text = lines(
    'version: 1',                                   // 1
    'rules:',                                       // 2
    '  - id: first',                                // 3
    '    on: [PreToolUse, Stop]',                   // 4
    '    paths:',                                   // 5
    '      allow:',                                 // 6
    '        - "src/**"',                           // 7
    '    when: "a and b"',                          // 8
    '    description:',                             // 9
    '    deny: |',                                  // 10
    '      line one',                               // 11
    '      two {{x',                                // 12
    '    a/b: 1',                                   // 13
  );
  const map = parsePolicyText('p.yaml', text).map as TextSourceMap;
  const loc = (pointer: string, part?: 'key' | 'value') => {
    const l = map.locate(pointer, part);
    return `${l.line}:${l.column}`;
  };

  test.each([
    ['', undefined, '1:1'],
    ['/version', undefined, '1:10'],
    ['/version', 'key', '1:1'],
    ['/rules', undefined, '3:3'],
    ['/rules/0', undefined, '3:5'],
    ['/rules/0/id', undefined, '3:9'],
    ['/rules/0/id', 'key', '3:5'],
    ['/rules/0/on/1', undefined, '4:22'],
    ['/rules/0/paths/allow/0', undefined, '7:11'],
    ['/rules/0/paths/allow', 'key', '6:7'],
    ['/rules/0/description', undefined, '9:5'], // empty value: the key
    ['/rules/0/a~1b', 'key', '13:5'],
    // missing pointers fall back to the nearest existing ancestor
    ['/rules/0/paths/deny/3', undefined, '6:7'],
    ['/rules/7/id', undefined, '3:3'],
    ['/rules/0/on/9', undefined, '4:9'],
  ] as const)('locate(%j, %s) = %s', (pointer, part, expected) => {
    expect(loc(pointer, part)).toBe(expected);
  });

  test.each([
    [1, 1, '/version'],
    [1, 10, '/version'],
    [3, 3, '/rules'], // the dash belongs to the list, not yet to the item
    [3, 5, '/rules/0/id'],
    [4, 22, '/rules/0/on/1'],
    [7, 12, '/rules/0/paths/allow/0'],
    [9, 5, '/rules/0/description'], // an empty value: the key
    [13, 5, '/rules/0/a~1b'],
    [99, 1, ''],
  ] as const)('pointerAt(%d, %d) = %j', (line, column, expected) => {
    expect(map.pointerAt(line, column)).toBe(expected);
  });

  test('locate reports the file', () => {
    expect(map.locate('/rules/0/id').file).toBe('p.yaml');
  });

  test('locateIn points inside quoted and block scalars', () => {
    const inWhen = map.locateIn('/rules/0/when', 6); // "a and b" -> the b
    expect([inWhen.line, inWhen.column]).toEqual([8, 18]);
    const inBlock = map.locateIn('/rules/0/deny', 'line one\ntwo '.length); // the {{ on line 12
    expect([inBlock.line, inBlock.column]).toEqual([12, 11]);
    const plain = map.locateIn('/rules/0/id', 2);
    expect([plain.line, plain.column]).toEqual([3, 11]);
  });
});
