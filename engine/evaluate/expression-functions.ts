/**
 * Functions of hookpolicy's own that every JSONata expression (`when`, `let: { expr }`) can
 * call, beside JSONata's: reading Markdown documents as sections (engine/memory/sections.ts).
 * Arguments that are not text read as no text, so a missing field never throws.
 */
import { changedSections, changedShare, sectionOf, sectionsDelta, sectionsDigest } from '../memory/sections';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The functions by the name an expression calls them with (`$sections_delta(...)`).
 * @example EXPRESSION_FUNCTIONS.section_of('## ba\nwip', 'wip') // 'ba'
 */
export const EXPRESSION_FUNCTIONS = {
  /** What changed between two versions of a document (the first may be a digest): `- ADDED|CHANGED|REMOVED: heading` lines, field by field (`Section.key: old → new`) where a section is fields. */
  sections_delta: (before: unknown, after: unknown): string => sectionsDelta(text(before), text(after)),
  /** The headings of the sections that differ between two versions (the first may be a digest). */
  changed_sections: (before: unknown, after: unknown): string[] => changedSections(text(before), text(after)),
  /** The share of sections that differ between two versions, 0 to 1 (the first may be a digest). */
  sections_changed_share: (before: unknown, after: unknown): number => changedShare(text(before), text(after)),
  /** The heading of the one section that holds all of a snippet; null when none does (so `!= $agent` holds). */
  section_of: (doc: unknown, snippet: unknown): string | null => sectionOf(text(doc), text(snippet)),
  /** A short stand-in for a document, to store and compare with later (a section per line). */
  sections_digest: (doc: unknown): string => sectionsDigest(text(doc)),
} as const;

/** Their names: no let may take one, its `$name` would hide the function. */
export const EXPRESSION_FUNCTION_NAMES: readonly string[] = Object.keys(EXPRESSION_FUNCTIONS);
