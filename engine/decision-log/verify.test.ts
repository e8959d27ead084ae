import { GENESIS, lineHash, splitLines } from './chain';
import { verifyChain } from './verify';

/** A chained log of `n` records, as the runner writes it. */
function chained(n: number, start = GENESIS): string[] {
  const lines: string[] = [];
  let prev = start;
  for (let i = 1; i <= n; i++) {
    const line = JSON.stringify({ time: `2026-01-14T09:0${i}:00.000Z`, outcome: 'deny', rules: [`r${i}`], prev });
    lines.push(line);
    prev = lineHash(Buffer.from(line));
  }
  return lines;
}

const verify = (lines: string[], head?: string, end = '\n') => verifyChain(splitLines(Buffer.from(lines.length ? lines.join('\n') + end : '')), head === undefined ? {} : { head });
const kinds = (lines: string[], head?: string) => verify(lines, head).breaks.map((b) => [b.line, b.kind]);

describe('splitLines', () => {
  it.each([
    ['', 0, true],
    ['a\n', 1, true],
    ['a\nb', 2, false],
    ['\n\n', 2, true],
  ])('%j: %d lines, terminated %s', (text, count, terminated) => {
    const split = splitLines(Buffer.from(text));
    expect([split.lines.length, split.terminated]).toEqual([count, terminated]);
  });
});

describe('verifyChain', () => {
  it('an intact log: no breaks, chained from line 1, head = the last line\'s hash', () => {
    const lines = chained(4);
    expect(verify(lines)).toEqual({ lines: 4, chainedFrom: 1, head: lineHash(Buffer.from(lines[3])), breaks: [] });
  });

  it('an empty log is intact and has no head', () => {
    expect(verify([])).toEqual({ lines: 0, chainedFrom: null, head: null, breaks: [] });
  });

  it('an edited field breaks the link of the line after it', () => {
    const lines = chained(5);
    lines[2] = lines[2].replace('"deny"', '"allow"');
    const report = verify(lines);
    expect(report.breaks).toEqual([{ line: 4, kind: 'mismatch', message: 'prev does not match line 3: line 3 was changed, or lines after it were removed' }]);
  });

  it('a middle line removed', () => {
    const lines = chained(5);
    lines.splice(2, 1);
    expect(kinds(lines)).toEqual([[3, 'mismatch']]);
  });

  it('two lines swapped: the moved lines name each other', () => {
    const lines = chained(5);
    [lines[1], lines[2]] = [lines[2], lines[1]];
    const report = verify(lines);
    expect(report.breaks.map((b) => [b.line, b.message])).toEqual([
      [2, 'prev names line 3, which comes after it: lines were reordered'],
      [3, 'prev names line 1, not line 2: line 2 was inserted, or lines were moved'],
      [4, 'prev names line 2, not line 3: line 3 was inserted, or lines were moved'],
    ]);
  });

  it('the last line dropped: intact, but not with the head kept before', () => {
    const lines = chained(5);
    const head = verify(lines).head as string;
    const dropped = lines.slice(0, 4);
    expect(kinds(dropped)).toEqual([]);
    expect(verify(dropped, head).breaks).toEqual([{ line: 4, kind: 'head', message: `no line has the head hash given (${head.slice(0, 12)}…): lines were removed from the end, or the log was rewritten` }]);
  });

  it('a head kept earlier is found with the lines appended since', () => {
    const lines = chained(5);
    const head = verify(lines.slice(0, 3)).head as string;
    expect(verify(lines, head)).toMatchObject({ headLine: 3, breaks: [] });
    expect(verify(lines, head.toUpperCase())).toMatchObject({ headLine: 3, breaks: [] });
  });

  it('a forged line appended with a wrong prev', () => {
    const lines = chained(3);
    lines.push(JSON.stringify({ time: '2026-01-14T10:00:00.000Z', outcome: 'allow', rules: [], prev: 'f'.repeat(64) }));
    expect(kinds(lines)).toEqual([[4, 'mismatch']]);
  });

  it('a line inserted with the right prev is caught by the line after it', () => {
    const lines = chained(4);
    const forged = JSON.stringify({ time: 'x', outcome: 'allow', rules: [], prev: lineHash(Buffer.from(lines[1])) });
    lines.splice(2, 0, forged);
    expect(verify(lines).breaks).toEqual([{ line: 4, kind: 'mismatch', message: 'prev names line 2, not line 3: line 3 was inserted, or lines were moved' }]);
  });

  it('a line joined from another log starts a chain of its own', () => {
    const lines = [...chained(2), chained(1)[0]];
    expect(verify(lines).breaks).toEqual([{ line: 3, kind: 'mismatch', message: 'line 3 starts a chain of its own (its prev is the genesis value): the lines before it were added, or another log was joined to this one' }]);
  });

  it('lines removed from the start', () => {
    expect(kinds(chained(4).slice(2))).toEqual([[1, 'mismatch']]);
  });

  it('a line cut short at the end, a garbled and a blank line in the middle', () => {
    const lines = chained(4);
    const cut = verifyChain(splitLines(Buffer.from(`${lines.join('\n')}\n${lines[0].slice(0, 20)}`)));
    expect(cut.breaks.map((b) => [b.line, b.kind])).toEqual([[5, 'unterminated'], [5, 'garbled']]);
    const garbled = [...lines];
    garbled[1] = '{"time": garbled';
    expect(kinds(garbled)).toEqual([[2, 'garbled'], [3, 'mismatch']]);
    expect(kinds([lines[0], '', ...lines.slice(1)])).toEqual([[2, 'garbled'], [3, 'mismatch']]);
  });

  it('a prev that is no hash, and a line without prev after the chain began', () => {
    const lines = chained(3);
    lines[1] = lines[1].replace(/"prev":"[0-9a-f]+"/, '"prev":"abc"');
    expect(kinds(lines)).toEqual([[2, 'malformed-prev'], [3, 'mismatch']]);
    const unchained = chained(3);
    unchained.splice(1, 0, JSON.stringify({ time: 'x', outcome: 'allow', rules: [] }));
    expect(kinds(unchained)).toEqual([[2, 'unchained'], [3, 'mismatch']]);
  });

  it('lines written before the chain are not covered; the chain verifies from its first line, against the line before it', () => {
    const old = [JSON.stringify({ time: 'a', outcome: 'deny', rules: [] }), JSON.stringify({ time: 'b', outcome: 'ask', rules: [] })];
    const lines = [...old, ...chained(3, lineHash(Buffer.from(old[1])))];
    expect(verify(lines)).toMatchObject({ lines: 5, chainedFrom: 3, breaks: [] });
    const edited = [old[0], old[1].replace('ask', 'allow'), ...lines.slice(2)];
    expect(kinds(edited)).toEqual([[3, 'mismatch']]);
  });

  it('hashes the exact bytes: a re-encoded line (other spacing) breaks the next link', () => {
    const lines = chained(3);
    lines[0] = JSON.stringify(JSON.parse(lines[0]), null, 0).replace(':', ': ');
    expect(kinds(lines)).toEqual([[2, 'mismatch']]);
  });
});
