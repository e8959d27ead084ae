/**
 * The suites of a `policy test` run, read and parsed in order. With more than one suite
 * and more than one CPU, a worker thread (dist/suite-parser.cjs) parses the suites after
 * the first while the cases of the earlier ones run: parsing a large suite's YAML costs
 * about as much as running its cases. The results are the same plain data either way;
 * without the worker's bundle (sources under test) or when the worker fails, every
 * suite is parsed here.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Worker } from 'worker_threads';
import { parseSuiteText, type ParseSuiteResult } from '../../engine/testing/parse-suite';

/** A suite file's parse, or why it could not be read. */
export type SuiteRead = { parsed: ParseSuiteResult } | { readError: string };

export interface SuiteSource {
  /** The suite at `index` of the files given. */
  read(index: number): Promise<SuiteRead>;
  dispose(): void;
}

/**
 * Reads `files` (absolute paths) in the order asked.
 * @example const source = suiteSource(files); const first = await source.read(0); source.dispose();
 */
export function suiteSource(files: readonly string[]): SuiteSource {
  const worker = files.length > 1 && cpuCount() > 1 ? startWorker(files.slice(1)) : null;
  return {
    read: async (index) => {
      if (index > 0 && worker) {
        const fromWorker = await worker.result(index - 1);
        if (fromWorker) return fromWorker;
      }
      return readHere(files[index]);
    },
    dispose: () => worker?.stop(),
  };
}

function readHere(file: string): SuiteRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return { readError: (e as Error).message };
  }
  return { parsed: parseSuiteText(file, text) };
}

function cpuCount(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

interface ParserWorker {
  /** The worker's result for the file at `index` of those it was given; null when it failed (parse it here). */
  result(index: number): Promise<SuiteRead | null>;
  stop(): void;
}

function startWorker(files: string[]): ParserWorker | null {
  const entry = path.join(__dirname, 'suite-parser.cjs');
  if (!fs.existsSync(entry)) return null;
  let worker: Worker;
  try {
    // Required here: a run of one suite never loads worker_threads.
    const { Worker: WorkerClass } = require('worker_threads') as typeof import('worker_threads');
    worker = new WorkerClass(entry, { workerData: { files } });
  } catch {
    return null;
  }
  const results = new Map<number, SuiteRead>();
  const waiting = new Map<number, (r: SuiteRead | null) => void>();
  let failed = false;
  const fail = () => {
    failed = true;
    for (const resolve of waiting.values()) resolve(null);
    waiting.clear();
  };
  worker.on('message', (m: { index: number } & SuiteRead) => {
    const read: SuiteRead = 'readError' in m ? { readError: m.readError } : { parsed: m.parsed };
    const resolve = waiting.get(m.index);
    if (resolve) {
      waiting.delete(m.index);
      resolve(read);
    } else results.set(m.index, read);
  });
  worker.on('error', fail);
  worker.on('exit', () => {
    if (waiting.size > 0) fail();
  });
  return {
    result: (index) => {
      const ready = results.get(index);
      if (ready) {
        results.delete(index);
        return Promise.resolve(ready);
      }
      if (failed) return Promise.resolve(null);
      return new Promise((resolve) => waiting.set(index, resolve));
    },
    stop: () => {
      void worker.terminate();
    },
  };
}
