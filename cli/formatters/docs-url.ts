/**
 * Absolute links to the package's docs, for output read away from the package (SARIF's
 * helpUri must be an absolute URI). Derived from package.json: a GitHub `repository` or
 * `homepage` gives the file on GitHub; without either, the file as published in the npm
 * package (docs/ ships in it), at this version.
 */
import { docsUrl } from '../../engine/diagnostics';
import * as packageJson from '../../package.json';

export interface PackageInfo {
  name: string;
  version: string;
  homepage?: string;
  repository?: string | { type?: string; url?: string; directory?: string };
}

/**
 * The absolute URL of a file of the docs (a path from the package root, with an anchor).
 * @example packageDocsUrl({ name: 'hookpolicy', version: '0.1.0' }, 'docs/diagnostics.md#yaml-syntax')
 *   // 'https://unpkg.com/hookpolicy@0.1.0/docs/diagnostics.md#yaml-syntax'
 * @example packageDocsUrl({ name: 'p', version: '1.0.0', repository: 'github:o/p' }, 'docs/a.md')
 *   // 'https://github.com/o/p/blob/HEAD/docs/a.md'
 */
export function packageDocsUrl(pkg: PackageInfo, file: string): string {
  const repo = typeof pkg.repository === 'string' ? { url: pkg.repository } : pkg.repository;
  const github = githubRepo(repo?.url) ?? githubRepo(pkg.homepage);
  if (github) {
    const dir = typeof repo === 'object' && repo.directory && githubRepo(repo.url) ? `${repo.directory.replace(/^\/+|\/+$/g, '')}/` : '';
    return `https://github.com/${github}/blob/HEAD/${dir}${file}`;
  }
  return `https://unpkg.com/${pkg.name}@${pkg.version}/${file}`;
}

/** `owner/name` of a GitHub repository URL or shorthand, or null. */
function githubRepo(url: string | undefined): string | null {
  if (!url) return null;
  const shorthand = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(url);
  if (shorthand) return shorthand[1].replace(/\.git$/, '');
  const full = /^(?:git\+)?(?:https?|git|ssh):\/\/(?:[^@/]+@)?github\.com[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?(?:[/#?].*)?$/.exec(url)
    ?? /^git@github\.com:([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(url);
  return full ? full[1] : null;
}

/**
 * The link to a diagnostic code's section of docs/diagnostics.md, for this package.
 * @example diagnosticHelpUri('yaml-syntax') // 'https://unpkg.com/hookpolicy@0.1.0/docs/diagnostics.md#yaml-syntax'
 */
export function diagnosticHelpUri(code: string): string {
  return packageDocsUrl(packageJson as PackageInfo, docsUrl(code));
}
