/**
 * Entry of dist/suite-parser.cjs: a worker thread that reads and parses suite files
 * (workerData.files, in order) and posts each result as `{ index, parsed }` or
 * `{ index, readError }`. `policy test` runs one suite's cases while this parses the
 * next ones on another core (cli/commands/suite-source.ts).
 */
import * as fs from 'fs';
import { parentPort, workerData } from 'worker_threads';
import { parseSuiteText } from '../engine/testing/parse-suite';

const files = (workerData as { files: string[] }).files;
files.forEach((file, index) => {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    parentPort?.postMessage({ index, readError: (e as Error).message });
    return;
  }
  parentPort?.postMessage({ index, parsed: parseSuiteText(file, text) });
});
