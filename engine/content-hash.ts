/**
 * The SHA-256 of a file's content, as the policy cache keys files by it. A small text (a
 * team's own policy file, a few hundred bytes) goes through the engine's own SHA-256
 * (engine/decision-log/sha256.ts), in the interpreter: node:crypto costs a one-shot
 * process ~2 ms to load, more than the whole hash. A large one goes through node:crypto,
 * loaded then: the interpreter would take ~12 us per 64 bytes.
 */
import type * as Crypto from 'crypto';
import { sha256 } from './decision-log/sha256';

/** Up to this many bytes the engine's own SHA-256 is the faster. */
export const OWN_HASH_MAX_BYTES = 4096;

/**
 * Lower-case hex SHA-256 of the bytes (a string as UTF-8).
 * @example sha256Hex('a') // 'ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb'
 */
export function sha256Hex(data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  if (bytes.length <= OWN_HASH_MAX_BYTES) return sha256().update(bytes).hex();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('crypto') as typeof Crypto).createHash('sha256').update(bytes).digest('hex');
}
