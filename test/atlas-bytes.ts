// Byte surgery on atlas files for the atlas tests.
import { crc32 } from '../src/base/crc32.js';

/** Applies `fn` to a copy of `bytes`, then rewrites the CRC so that only the structural checks can catch the change. */
export function patch(bytes: Uint8Array, fn: (dv: DataView, b: Uint8Array) => void): Uint8Array {
    const b = bytes.slice();
    const dv = new DataView(b.buffer);
    fn(dv, b);
    dv.setUint32(b.length - 4, crc32(b, 0, b.length - 4), true);
    return b;
}
