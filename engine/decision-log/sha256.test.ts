import { createHash } from 'crypto';
import fc from 'fast-check';
import { sha256 } from './sha256';

const native = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('sha256', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  ])('the FIPS 180-4 example %j', (text, hex) => {
    expect(sha256().update(Buffer.from(text)).hex()).toBe(hex);
  });

  it.each([55, 56, 63, 64, 65, 119, 120, 127, 128, 1_000_000])('%d bytes, around the padding\'s edges and past many blocks', (length) => {
    const bytes = Buffer.alloc(length, 0x61);
    expect(sha256().update(bytes).hex()).toBe(native(bytes));
  });

  it('gives node:crypto\'s answer for any bytes, fed in any pieces', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 3000 }), fc.array(fc.nat(3000), { maxLength: 6 }), (bytes, cuts) => {
      const hash = sha256();
      let at = 0;
      for (const cut of [...cuts].sort((a, b) => a - b)) {
        hash.update(bytes.subarray(at, Math.max(at, Math.min(cut, bytes.length))));
        at = Math.max(at, Math.min(cut, bytes.length));
      }
      expect(hash.update(bytes.subarray(at)).hex()).toBe(native(bytes));
    }), { numRuns: 300 });
  });

  it('a clone goes on from the same bytes, and leaves the original as it was', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 500 }), fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }), (head, a, b) => {
      const begun = sha256().update(head);
      const copy = begun.clone();
      expect(copy.update(a).hex()).toBe(native(Buffer.concat([head, a])));
      expect(begun.update(b).hex()).toBe(native(Buffer.concat([head, b])));
    }), { numRuns: 200 });
  });
});
