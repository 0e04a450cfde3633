// The layout of the binary atlas format (docs/format.md), shared by MaskAtlas.toBytes and the reader.
import type { TagDirection } from './atlas-frame.js';

export const MAGIC = [0x48, 0x4d, 0x53, 0x4b]; // "HMSK"
export const HEADER = 32,
    FRAME = 32,
    TAG = 16,
    BOX = 24,
    TRAILER = 4;
// Version 2's polygons section: its header (polygons, rings, vertices), a record per frame, 8-byte coordinates.
export const POLY_HEAD = 12,
    POLY_FRAME = 12,
    VERTEX = 16;
export const DIRECTIONS: readonly TagDirection[] = ['forward', 'reverse', 'pingpong', 'pingpong_reverse'];
export const I32 = 2 ** 31,
    U32 = 2 ** 32 - 1;
export const LITTLE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

// In doubles: `(n + 3) & ~3` wraps for n ≥ 2^31, and a file declaring 2^32 - 1 string bytes then passed the size check.
export function pad4(n: number): number {
    return Math.ceil(n / 4) * 4;
}
