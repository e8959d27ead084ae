/**
 * Loads root policy files and everything they include, depth-first: a file's includes
 * come before it, each file once, roots in the order given.
 */
import * as path from 'path';
import { sha256Hex } from '../content-hash';
import { diagnostic } from '../diagnostics';
import type { Diagnostic, LoadedFile, PlacedDiagnostic, SourceLocation } from '../types';
import { parsePolicyText, type ParseResult } from './parse';

export interface PolicyReader {
  /** File contents, or null when missing/unreadable. */
  read(file: string): string | null;
  /** Absolute path of a shipped pack's YAML by name (e.g. 'ai-team'), or null. */
  packPath(name: string): string | null;
  /** The parse of `text` (just read from `file`) when the reader already has it (load/parse-snapshot.ts); else null, and the loader parses. */
  parsed?(file: string, text: string): ParseResult | null;
  /** The SHA-256 of what read() last handed out for `file`, when the reader keeps it; else the loader hashes the text. */
  digest?(file: string): string | undefined;
}

export interface LoadResult {
  files: LoadedFile[];
  diagnostics: Diagnostic[];
  /**
   * The same diagnostics, placed: a root that cannot be read at the policy (file null), a
   * broken include at the including file's `/include`, a parse error where parsing put it.
   */
  placed: PlacedDiagnostic[];
}

/**
 * Loads `roots` and their includes through `reader`.
 * @example loadPolicyFiles(['.claude/policies.yaml'], reader).files.map((f) => f.file)
 *   // ['/pkg/policies/ai-team.yaml', '.claude/policies.yaml']
 */
export function loadPolicyFiles(roots: string[], reader: PolicyReader): LoadResult {
  const loaded = new Map<string, LoadedFile>();
  const order: LoadedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const placed: PlacedDiagnostic[] = [];
  const stack: string[] = [];
  const report = (d: Diagnostic, file: string | null, pointer: string) => {
    diagnostics.push(d);
    placed.push({ diagnostic: d, file, pointer });
  };

  const visit = (file: string, pack: string | undefined, includedAt: SourceLocation | null): LoadedFile | null => {
    const text = reader.read(file);
    if (text === null) {
      if (!includedAt) {
        report(diagnostic('policy-not-found', `Policy file ${file} does not exist or cannot be read`, { file }), null, '');
        return null;
      }
      const what = pack === undefined ? `Included file ${file}` : `Shipped pack "${pack}" (${file})`;
      report(diagnostic('include-not-found', `${what} does not exist or cannot be read`, includedAt), includedAt.file, '/include');
      return null;
    }
    const parsed = reader.parsed?.(file, text) ?? parsePolicyText(file, text);
    diagnostics.push(...parsed.diagnostics);
    placed.push(...parsed.placed);
    const loadedFile: LoadedFile = {
      file,
      hash: reader.digest?.(file) ?? sha256Hex(text),
      doc: parsed.doc,
      map: parsed.map,
      includes: [],
      root: includedAt === null,
    };
    if (pack !== undefined) loadedFile.pack = pack;
    if (parsed.expressions) loadedFile.expressions = parsed.expressions;
    if (parsed.expressionRegexes) loadedFile.expressionRegexes = parsed.expressionRegexes;
    if (parsed.valid) loadedFile.valid = true;
    loaded.set(file, loadedFile);
    stack.push(file);
    includeEntries(parsed.doc).forEach((entry, i) => {
      if (entry === '') return;
      const at = parsed.map.locate(`/include/${i}`);
      const target = resolveInclude(file, entry, reader);
      if (!target) {
        report(diagnostic('include-not-found', `No shipped pack named "${entry}"`, at, 'a file path needs a "/" or a .yaml/.yml ending'), file, `/include/${i}`);
        return;
      }
      if (stack.includes(target.file)) {
        const cycle = [...stack.slice(stack.indexOf(target.file)), target.file].join(' -> ');
        report(diagnostic('include-cycle', `Include cycle: ${cycle}`, at), file, `/include/${i}`);
        return;
      }
      const child = loaded.get(target.file) ?? visit(target.file, target.pack, at);
      if (child && !loadedFile.includes.includes(child.file)) loadedFile.includes.push(child.file);
    });
    stack.pop();
    order.push(loadedFile);
    return loadedFile;
  };

  for (const root of roots) {
    const existing = loaded.get(root);
    if (existing) existing.root = true;
    else visit(root, undefined, null);
  }
  return { files: order, diagnostics, placed };
}

function includeEntries(doc: unknown): string[] {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return [];
  const include = (doc as { include?: unknown }).include;
  if (!Array.isArray(include)) return [];
  // Non-string entries keep their index (so positions stay right); the schema reports them.
  return include.map((entry) => (typeof entry === 'string' ? entry : ''));
}

/** A file entry resolves against the including file's folder; anything else is a pack name. */
function resolveInclude(from: string, entry: string, reader: PolicyReader): { file: string; pack?: string } | null {
  if (entry.includes('/') || /\.ya?ml$/i.test(entry)) {
    const p = from.includes('\\') ? path.win32 : path.posix;
    return { file: p.isAbsolute(entry) ? p.normalize(entry) : p.join(p.dirname(from), entry) };
  }
  const packFile = reader.packPath(entry);
  return packFile ? { file: packFile, pack: entry } : null;
}
