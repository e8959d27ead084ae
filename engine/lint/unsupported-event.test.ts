import { lintedAt } from './fixture';

describe('unsupported-event', () => {
  it.each([
    ['a single event', 'version: 1\nrules:\n  - id: r\n    on: WorktreeCreate\n    warn: x\n', ['4:9 unsupported-event']],
    ['an item of a list', 'version: 1\nrules:\n  - id: r\n    on: [Stop, WorktreeCreate]\n    block: x\n', ['4:16 unsupported-event']],
    ['WorktreeRemove is supported', 'version: 1\nrules:\n  - id: r\n    on: WorktreeRemove\n    block: x\n', []],
  ])('%s', (_name, text, expected) => {
    expect(lintedAt(text, 'unsupported-event')).toEqual(expected);
  });
});
