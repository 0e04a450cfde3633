// Image types shared by the decoders, and the decode budget they all charge before allocating.
import { outOfRange } from '../base/check.js';

/** A decoded image: 8-bit RGBA pixels, rows top to bottom. */
export interface RGBAImage {
    width: number;
    height: number;
    data: Uint8Array;
}

/** One frame of an animation, composited onto the full canvas. */
export interface ImageFrame extends RGBAImage {
    /** How long the frame shows, in milliseconds (0 when the file says nothing). */
    delay: number;
}

/** Default decode budget: 256 MiB of RGBA, e.g. one 8192×8192 sheet. */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

/** `n` bytes in MiB for messages: whole MiB from 1 MiB up, three decimals below. */
export const mib = (n: number): string => (n / 1048576).toFixed(n < 1048576 ? 3 : 0);

/**
 * What one file may cost to decode, in bytes of 8-bit RGBA (4 per pixel), summed over the whole file: every
 * frame returned, plus every pixel decoded that no returned frame holds (GIF frames reaching past the screen).
 */
export class Budget {
    private used = 0;

    constructor(readonly limit: number) {}

    /**
     * Charges `frames` RGBA images of `width` × `height`; throws a RangeError, before anything is allocated, past the
     * limit.
     */
    image(width: number, height: number, frames = 1): void {
        const need = width * height * 4 * frames;
        if (this.used + need <= this.limit) {
            this.used += need;
            return;
        }
        throw outOfRange(
            `Image is ${width}x${height}${frames > 1 ? ` with ${frames} frames` : ''}, which needs ${mib(need)} MiB of RGBA${this.spent()}, more than the ${mib(this.limit)} MiB budget; raise maxBytes (CLI: --max-mib) if the file is trusted.`
        );
    }

    /**
     * Charges `count` decoded pixels that no returned frame holds; `what` says which, e.g. "GIF frame 3 decodes 900
     * pixels outside its screen".
     */
    pixels(count: number, what: string): void {
        const need = count * 4;
        if (this.used + need <= this.limit) {
            this.used += need;
            return;
        }
        throw outOfRange(
            `${what}, which needs ${mib(need)} MiB of RGBA${this.spent()}, more than the ${mib(this.limit)} MiB budget; raise maxBytes (CLI: --max-mib) if the file is trusted.`
        );
    }

    private spent(): string {
        return this.used > 0 ? ` on top of the ${mib(this.used)} MiB its other frames take` : '';
    }
}
