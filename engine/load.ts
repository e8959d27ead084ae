/**
 * Stage 1 of the pipeline: policy files -> LoadedFile[] (plain data + source maps) and
 * diagnostics. Pure: reading files is the PolicyReader's job.
 */
export { parsePolicyText } from './load/parse';
export type { ParseResult } from './load/parse';
export { loadPolicyFiles } from './load/includes';
export type { PolicyReader, LoadResult } from './load/includes';
export { pointerSegments, toPointer } from './load/source-map';
export type { TextSourceMap } from './load/source-map';
export { memoryReader } from './load/memory-reader';
