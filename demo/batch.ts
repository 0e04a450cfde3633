// What the stress-mode renderers share: a frame is a list of images and tinted rectangles over a base
// picture (background and terrain), queued by the page and drawn at once by flush(). gl.ts draws the list
// with WebGL2 in one draw call; pixels.ts writes it into one ImageData in script, put with one call.

/** An image (or the base picture) known to a batch. */
export interface Region {
    readonly width: number;
    readonly height: number;
}

/** Queues images and rectangles, then draws the frame. */
export interface Batch {
    /** The base picture, the field's size: draw it first, at (0, 0). */
    readonly baseRegion: Region;
    /** The region of a packed image; throws for a name that was not packed. */
    region(name: string): Region;
    /** Replaces the base picture with a canvas of the field's size. */
    setBase(picture: HTMLCanvasElement): void;
    /** Queues a region drawn at (x, y) with size (w, h), optionally mirrored, with an opacity in 0..1. */
    image(r: Region, x: number, y: number, w: number, h: number, flip?: boolean, alpha?: number): void;
    /** Queues a filled rectangle; `rgba` is 0xRRGGBBAA (straight alpha), times `alpha`. */
    rect(x: number, y: number, w: number, h: number, rgba: number, alpha?: number): void;
    /** Queues a box outline `line` pixels thick drawn inside (x, y, w, h), as the debug helpers' drawBox. */
    box(x: number, y: number, w: number, h: number, rgba: number, line: number, alpha?: number): void;
    /** Draws the queued frame. */
    flush(): void;
}

/** Queues a box outline as four rectangles (a filled box when it is too small for a hole), as drawBox does. */
export function boxAsRects(
    batch: Batch,
    x: number,
    y: number,
    w: number,
    h: number,
    rgba: number,
    line: number,
    alpha = 1
): void {
    if (w <= 2 * line || h <= 2 * line) {
        batch.rect(x, y, w, h, rgba, alpha);
        return;
    }
    batch.rect(x, y, w, line, rgba, alpha);
    batch.rect(x, y + h - line, w, line, rgba, alpha);
    batch.rect(x, y + line, line, h - 2 * line, rgba, alpha);
    batch.rect(x + w - line, y + line, line, h - 2 * line, rgba, alpha);
}
