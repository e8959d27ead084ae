import { createHash, randomBytes } from 'crypto';
import { OWN_HASH_MAX_BYTES, sha256Hex } from './content-hash';

describe('sha256Hex', () => {
  it('is node:crypto\'s SHA-256, on either side of the size where it stops using its own', () => {
    const sizes = [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, OWN_HASH_MAX_BYTES - 1, OWN_HASH_MAX_BYTES, OWN_HASH_MAX_BYTES + 1, 3 * OWN_HASH_MAX_BYTES];
    for (const size of sizes) {
      const bytes = randomBytes(size);
      expect([size, sha256Hex(bytes)]).toEqual([size, createHash('sha256').update(bytes).digest('hex')]);
    }
  });

  it('hashes a string as its UTF-8 bytes', () => {
    const text = 'version: 1\n# 규칙 — règle\n';
    expect(sha256Hex(text)).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
    expect(sha256Hex('a')).toBe('ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb');
  });
});
