/**
 * What the policy server and a session's worker (cli/serve-worker-main.ts) say to each
 * other. The worker is loaded from the session's own install, which is of the server's
 * build (the server refuses a worker that says otherwise), so both ends read these types
 * the same way.
 */
import type { Diagnostic } from '../../types';

/** What a worker starts with: the session's project, policy files, on_error and environment. */
export interface WorkerData {
  projectRoot: string;
  configs: string[];
  onError: 'open' | 'closed' | null;
  env: Record<string, string>;
  cacheDirs?: string[];
}

export type WorkerRequest =
  | { type: 'event'; id: number; body: string }
  /** An event the server answered itself (the worker before this one ran past its deadline): counted as the runner counts one. */
  | { type: 'unjudged'; body: string; problem: Diagnostic; onError: 'open' | 'closed' };

export type WorkerReply =
  /** The worker has loaded its policy: its deadline_ms and on_error (null: no policy builds). */
  | { type: 'ready'; build: string; deadlineMs: number | null; onError: 'open' | 'closed' | null }
  /** The answer, with the policy's deadline_ms and on_error as it was built for it (null: no policy). */
  | { type: 'answer'; id: number; status: number; body: string; deadlineMs: number | null; onError: 'open' | 'closed' | null }
  | { type: 'log'; line: string };
