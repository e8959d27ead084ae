import * as fs from 'fs';
import * as path from 'path';
import { DIAGNOSTIC_CODES } from '../diagnostics';

const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'diagnostics.md'), 'utf8');
const headings = [...doc.matchAll(/^## (\S+)\s*$/gm)].map((m) => m[1]);

describe('docs/diagnostics.md', () => {
  it.each(Object.keys(DIAGNOSTIC_CODES))('documents %s under its own heading', (code) => {
    expect(headings).toContain(code);
  });

  it('has no section for a code that does not exist', () => {
    expect(headings.filter((h) => !(h in DIAGNOSTIC_CODES))).toEqual([]);
  });

  it('gives each section a fix', () => {
    const sections = doc.split(/^## /m).slice(1);
    const missing = sections.filter((s) => !/\*\*Fix:\*\*/.test(s)).map((s) => s.split('\n')[0]);
    expect(missing).toEqual([]);
  });

  it('states each code with the severity the code table gives it', () => {
    const wrong = Object.entries(DIAGNOSTIC_CODES).filter(([code, info]) => {
      const section = doc.split(/^## /m).find((s) => s.startsWith(`${code}\n`)) ?? '';
      return !section.includes(`**${info.severity}`);
    }).map(([code]) => code);
    expect(wrong).toEqual([]);
  });
});
