// APNG animation: each frame's raster is decoded to RGBA (decodeFrameRaster), then composited on the canvas
// with its blend and dispose ops as the APNG specification describes.
import { decodeFrameRaster, type ApngFrame, type PngInfo } from './png.js';
import type { Budget, ImageFrame } from './image.js';

/**
 * Decodes and composites every frame of an APNG scanned by `scanPng`, charging the returned canvases to `budget` first.
 */
export function decodeApng(info: PngInfo, budget: Budget): ImageFrame[] {
    const { width, height, frames } = info;
    budget.image(width, height, frames.length);
    const out: ImageFrame[] = [];
    // The output buffer starts fully transparent black.
    let canvas = new Uint8Array(width * height * 4);
    for (let i = 0; i < frames.length; i++) {
        const f = frames[i];
        const image = decodeFrameRaster(info, f.width, f.height, f.data, `APNG frame ${i}`);
        // The specification: a first frame disposed to PREVIOUS is disposed to BACKGROUND.
        const dispose = i === 0 && f.dispose === 2 ? 1 : f.dispose;
        const saved = dispose === 2 ? copyRect(canvas, width, f) : null;
        if (f.blend === 0) putRect(canvas, width, f, image.data);
        else blendRect(canvas, width, f, image.data);
        out.push({ width, height, data: canvas, delay: f.delay });
        if (i === frames.length - 1) break;
        canvas = canvas.slice();
        if (dispose === 1) clearRect(canvas, width, f);
        else if (saved) putRect(canvas, width, f, saved);
    }
    return out;
}

function copyRect(canvas: Uint8Array, width: number, f: ApngFrame): Uint8Array {
    const out = new Uint8Array(f.width * f.height * 4),
        row = f.width * 4;
    for (let y = 0; y < f.height; y++) {
        const at = ((f.y + y) * width + f.x) * 4;
        out.set(canvas.subarray(at, at + row), y * row);
    }
    return out;
}

function putRect(canvas: Uint8Array, width: number, f: ApngFrame, src: Uint8Array): void {
    const row = f.width * 4;
    for (let y = 0; y < f.height; y++) canvas.set(src.subarray(y * row, (y + 1) * row), ((f.y + y) * width + f.x) * 4);
}

function clearRect(canvas: Uint8Array, width: number, f: ApngFrame): void {
    for (let y = 0; y < f.height; y++) {
        const at = ((f.y + y) * width + f.x) * 4;
        canvas.fill(0, at, at + f.width * 4);
    }
}

// APNG_BLEND_OP_OVER on straight (not premultiplied) 8-bit RGBA, the specification's formula with rounding:
// alpha = sa + da (255 - sa) / 255, colour = (sc sa 255 + dc da (255 - sa)) / (alpha 255).
function blendRect(canvas: Uint8Array, width: number, f: ApngFrame, src: Uint8Array): void {
    for (let y = 0, s = 0; y < f.height; y++) {
        let d = ((f.y + y) * width + f.x) * 4;
        for (let x = 0; x < f.width; x++, s += 4, d += 4) {
            const sa = src[s + 3];
            if (sa === 0) continue;
            const da = canvas[d + 3];
            if (sa === 255 || da === 0) {
                canvas[d] = src[s];
                canvas[d + 1] = src[s + 1];
                canvas[d + 2] = src[s + 2];
                canvas[d + 3] = sa;
                continue;
            }
            const u = sa * 255,
                v = (255 - sa) * da,
                a = u + v;
            for (let c = 0; c < 3; c++) canvas[d + c] = Math.round((src[s + c] * u + canvas[d + c] * v) / a);
            canvas[d + 3] = Math.round(a / 255);
        }
    }
}
