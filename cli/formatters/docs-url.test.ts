import * as fs from 'fs';
import * as path from 'path';
import { diagnosticHelpUri, packageDocsUrl } from './docs-url';

describe('packageDocsUrl', () => {
  const base = { name: 'hookpolicy', version: '1.2.3' };
  it.each<[string, object, string]>([
    ['the published package without a repository', {}, 'https://unpkg.com/hookpolicy@1.2.3/docs/diagnostics.md#yaml-syntax'],
    ['a GitHub repository URL', { repository: { type: 'git', url: 'git+https://github.com/o/hp.git' } }, 'https://github.com/o/hp/blob/HEAD/docs/diagnostics.md#yaml-syntax'],
    ['a repository in a monorepo folder', { repository: { url: 'https://github.com/o/mono', directory: 'packages/hp/' } }, 'https://github.com/o/mono/blob/HEAD/packages/hp/docs/diagnostics.md#yaml-syntax'],
    ['the github: shorthand', { repository: 'github:o/hp' }, 'https://github.com/o/hp/blob/HEAD/docs/diagnostics.md#yaml-syntax'],
    ['the owner/name shorthand', { repository: 'o/hp' }, 'https://github.com/o/hp/blob/HEAD/docs/diagnostics.md#yaml-syntax'],
    ['an ssh URL', { repository: 'git@github.com:o/hp.git' }, 'https://github.com/o/hp/blob/HEAD/docs/diagnostics.md#yaml-syntax'],
    ['a GitHub homepage', { homepage: 'https://github.com/o/hp#readme' }, 'https://github.com/o/hp/blob/HEAD/docs/diagnostics.md#yaml-syntax'],
    ['a repository elsewhere', { repository: 'https://gitlab.com/o/hp.git', homepage: 'https://hp.example' }, 'https://unpkg.com/hookpolicy@1.2.3/docs/diagnostics.md#yaml-syntax'],
  ])('%s', (_name, fields, expected) => {
    expect(packageDocsUrl({ ...base, ...fields }, 'docs/diagnostics.md#yaml-syntax')).toBe(expected);
  });
});

describe('diagnosticHelpUri', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));

  it('is an absolute https URL ending in the code\'s docs anchor', () => {
    const uri = diagnosticHelpUri('rule-shadowed');
    expect(new URL(uri).protocol).toBe('https:');
    expect(uri.endsWith('/docs/diagnostics.md#rule-shadowed')).toBe(true);
  });

  it('points into the published package only while docs/ ships in it', () => {
    if (diagnosticHelpUri('x').startsWith('https://unpkg.com/')) expect(pkg.files).toContain('docs');
  });
});
