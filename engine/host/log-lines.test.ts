import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LogUnreadableError, readLogLines } from './log-lines';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-log-lines-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function read(file: string, options = {}): { lines: string[]; dropped: number } {
  const lines: string[] = [];
  let dropped = 0;
  readLogLines(file, (l) => lines.push(l), () => dropped++, options);
  return { lines, dropped };
}

describe('readLogLines', () => {
  it('gives each line, across chunk boundaries and multi-byte characters, with or without a final newline', () => {
    const file = path.join(dir, 'a.jsonl');
    fs.writeFileSync(file, 'één\n😀😀\n\nlast');
    expect(read(file, { chunkBytes: 3 })).toEqual({ lines: ['één', '😀😀', '', 'last'], dropped: 0 });
  });

  it('drops a line over the bound whole and goes on with the next', () => {
    const file = path.join(dir, 'long.jsonl');
    fs.writeFileSync(file, `a\n${'x'.repeat(100)}\nb\n${'y'.repeat(100)}`);
    expect(read(file, { chunkBytes: 16, maxLineChars: 40 })).toEqual({ lines: ['a', 'b'], dropped: 2 });
  });

  it('refuses a FIFO at once instead of waiting for a writer, and a folder', () => {
    const fifo = path.join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    expect(() => read(fifo)).toThrow(LogUnreadableError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(() => read(dir)).toThrow(LogUnreadableError);
  });

  it('throws ENOENT for a missing log', () => {
    expect(() => read(path.join(dir, 'none.jsonl'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
