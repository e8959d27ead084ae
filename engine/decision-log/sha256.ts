/**
 * SHA-256 (FIPS 180-4) for the runner's hash chain (and a small policy file's content
 * hash, engine/content-hash.ts), written out rather than taken from node:crypto or a
 * library, for the cost of a one-shot process:
 * - node:crypto loads ~35 of Node's internal modules (streams among them): ~2 ms and
 *   ~2 MiB for each logged event;
 * - @noble/hashes calls a small `rotr` function six times per round, which V8 compiles
 *   with TurboFan within the first blocks: ~3.5 MiB of peak memory.
 * Here every rotation is an expression inside the one compression function, so a line of
 * a few hundred bytes runs in the interpreter and nothing is optimised. `policy log
 * verify`, which hashes whole logs in a long run, uses node:crypto (chain.ts); a property
 * test holds the two to the same answers.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** An incremental SHA-256: feed bytes, copy the state part way, read the hex digest once. */
export interface Sha256 {
  update(bytes: Uint8Array): Sha256;
  /** An independent copy of the state: the same bytes fed so far. */
  clone(): Sha256;
  /** The digest, lower-case hex; the hash is not to be updated after. */
  hex(): string;
}

/**
 * @example sha256().update(Buffer.from('abc')).hex() // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function sha256(): Sha256 {
  return new Hash(Int32Array.from(INITIAL), new Uint8Array(64), 0, 0);
}

class Hash implements Sha256 {
  private readonly words = new Int32Array(64);

  /** `state`: the eight working words; `block`: bytes not yet compressed (`filled` of them); `length`: bytes fed in all. */
  constructor(private readonly state: Int32Array, private readonly block: Uint8Array, private filled: number, private length: number) {}

  update(bytes: Uint8Array): Sha256 {
    this.length += bytes.length;
    let at = 0;
    while (at < bytes.length) {
      const take = Math.min(64 - this.filled, bytes.length - at);
      this.block.set(bytes.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === 64) {
        compress(this.state, this.block, this.words);
        this.filled = 0;
      }
    }
    return this;
  }

  clone(): Sha256 {
    return new Hash(Int32Array.from(this.state), Uint8Array.from(this.block), this.filled, this.length);
  }

  hex(): string {
    const bits = this.length * 8;
    const tail = new Uint8Array(this.filled < 56 ? 64 - this.filled : 128 - this.filled);
    tail[0] = 0x80;
    // The length in bits, big-endian, in the last eight bytes (lines stay far below 2^53 bits).
    const high = Math.floor(bits / 0x100000000);
    for (let i = 0; i < 4; i++) {
      tail[tail.length - 8 + i] = (high >>> (24 - 8 * i)) & 0xff;
      tail[tail.length - 4 + i] = (bits >>> (24 - 8 * i)) & 0xff;
    }
    this.update(tail);
    let out = '';
    for (let i = 0; i < 8; i++) out += (this.state[i] >>> 0).toString(16).padStart(8, '0');
    return out;
  }
}

/** One 64-byte block into the state: the message schedule, then the 64 rounds. */
function compress(state: Int32Array, block: Uint8Array, w: Int32Array): void {
  for (let i = 0; i < 16; i++) w[i] = (block[4 * i] << 24) | (block[4 * i + 1] << 16) | (block[4 * i + 2] << 8) | block[4 * i + 3];
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15];
    const y = w[i - 2];
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6], h = state[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
  state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0;
  state[7] = (state[7] + h) | 0;
}
