import { diagnosticExample } from '../../test/support/doc-sections';
import { lintedAt } from './fixture';

const off = (rule: string) => `version: 1\nsettings: { memory: { store: false } }\nrules:\n  - id: r\n${rule}`;

describe('memory-off', () => {
  it.each([
    ['a record', '    on: Stop\n    record: { kind: k, text: t }\n', ['6:5 memory-off']],
    ['a store-reading let', '    on: Stop\n    let:\n      n: { count: k }\n      f: { file: a.md }\n    block: "{{n}} {{f}}"\n', ['7:7 memory-off']],
    ['neither', '    on: Stop\n    block: x\n', []],
  ])('%s', (_name, rule, expected) => {
    expect(lintedAt(off(rule), 'memory-off')).toEqual(expected);
  });

  it('says nothing while the store is on', () => {
    expect(lintedAt('version: 1\nrules:\n  - id: r\n    on: Stop\n    record: { kind: k, text: t }\n', 'memory-off')).toEqual([]);
  });

  it('reports the example of docs/diagnostics.md', () => {
    expect(lintedAt(diagnosticExample('memory-off'), 'memory-off')).toHaveLength(1);
  });
});
