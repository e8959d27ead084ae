/**
 * Issue 12, section 3: a path is judged by the file that would be opened, through the
 * built runner. A dangling symlink by the file a write through it creates, a name by the
 * file Windows or a case-insensitive file system opens for it, a name with a new line as
 * any other.
 */
import * as fs from 'fs';
import { makeProject, type TempProject } from '../support/run-hook';
import { outcome, pre } from '../support/pre-tool-use';

describe('secrets are judged by the file that would be opened', () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject([
      'version: 1',
      'rules:',
      '  - id: no-secret-writes',
      '    on: PreToolUse',
      '    tools: Write|Edit|Bash',
      '    paths: { deny: [".env", ".env.*", ".ssh/**", "id_rsa*", "*.key", "credentials*.json", ".git/**"] }',
      '    unparsable: ignore',
      '    deny: "{{path}} holds secrets."',
      '',
    ].join('\n'));
    fs.symlinkSync('.env', project.file('notes.txt'));
    fs.symlinkSync('.git/hooks/pre-commit', project.file('docs-hook'));
  });
  afterAll(() => project.remove());

  describe('dangling symlinks: judged by the file a write through them creates', () => {
    it.each([
      ['a dangling link to .env (Write)', 'notes.txt'],
      ['a dangling link into .git (Write)', 'docs-hook'],
    ])('%s: %j is denied', (_name, file) => {
      expect(outcome(pre('Write', { file_path: project.file(file), content: 'x' }, project))).toBe('deny');
    });

    it('a dangling link to .env written through Bash', () => {
      expect(outcome(pre('Bash', { command: 'echo API_KEY=1 > notes.txt' }, project))).toBe('deny');
      expect(fs.existsSync(project.file('.env'))).toBe(false);
    });
  });

  describe('names with a new line: a glob\'s * and ** match it as any other character', () => {
    it.each([
      ['under .ssh/**', '.ssh/a\nb'],
      ['under .git/**, in a folder', '.git/x\ny/config'],
    ])('%s: %j is denied', (_name, file) => {
      expect(outcome(pre('Write', { file_path: project.file(file), content: 'x' }, project))).toBe('deny');
    });

    it('written through Bash', () => {
      expect(outcome(pre('Bash', { command: "echo x > $'.ssh/a\\nb'" }, project))).toBe('deny');
    });

    it("a name spelled with $'...' escapes is the name bash opens", () => {
      expect(outcome(pre('Bash', { command: "echo API_KEY=1 > $'.e\\x6ev'" }, project))).toBe('deny');
      expect(outcome(pre('Bash', { command: "echo x > $'\\056env'" }, project))).toBe('deny');
    });
  });

  describe('names a case-insensitive or Windows file system opens as a secret file', () => {
    it.each([
      ['a trailing dot', '.env.'],
      ['a trailing space', '.env '],
      ['the default data stream', '.env::$DATA'],
      ['a named stream of a folder', '.git::$INDEX_ALLOCATION/config'],
      ['a long s for s (case folding)', '.\u017Fsh/authorized_keys'],
      ['a Kelvin sign for k', 'server.\u212Aey'],
      ['a dotless i', 'credent\u0131als.json'],
      ['a zero-width space', '.e\u200Bnv'],
      ['upper case', 'ID_RSA'],
      ['NFD', 'credentials-cafe\u0301.json'],
    ])('%s: %j is denied', (_name, file) => {
      expect(outcome(pre('Write', { file_path: project.file(file), content: 'x' }, project))).toBe('deny');
    });
  });
});

