// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the checksum of zlib, PNG and gzip.

let table: Int32Array | null = null;

function makeTable(): Int32Array {
    const t = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        t[n] = c;
    }
    return t;
}

/** CRC-32 of `bytes[start..end)`; pass a previous result as `crc` to continue a running checksum. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length, crc = 0): number {
    const t = (table ??= makeTable());
    let c = ~crc;
    for (let i = start; i < end; i++) c = t[(c ^ bytes[i]) & 255] ^ (c >>> 8);
    return ~c >>> 0;
}
