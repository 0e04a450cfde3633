// Image types shared by the decoders, and the memory budget check they all run before allocating.

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

/** Throws unless `frames` RGBA images of `width` × `height` fit in `budget` bytes. */
export function checkBudget(width: number, height: number, frames: number, budget: number): void {
    const need = width * height * 4 * frames;
    if (need > budget) {
        const mib = (n: number) => (n / 1048576).toFixed(n < 1048576 ? 3 : 0);
        throw new Error(`Image is ${width}x${height}${frames > 1 ? ` with ${frames} frames` : ''}, which needs ${mib(need)} MiB of RGBA, more than the ${mib(budget)} MiB budget; raise maxBytes (CLI: --max-mib) if the file is trusted.`);
    }
}
