// A mask as RGBA pixels, for debug drawing and image files.
import { checkMask, type Mask } from './mask.js';
import { wordsToRGBA, type RGBAColors } from './rgba.js';

/**
 * RGBA pixels of `mask` for debug drawing (e.g. `new ImageData(toRGBA(mask), w, h)`): `onColor` where set,
 * `offColor` elsewhere, both `0xRRGGBBAA`; written into `out` (length width·height·4) when given.
 */
export function toRGBA(
    mask: Mask,
    options: RGBAColors = {},
    out?: Uint8ClampedArray | Uint8Array
): Uint8ClampedArray | Uint8Array {
    checkMask(mask, 'mask');
    return wordsToRGBA(mask._words, mask.width, mask.height, options, out);
}
