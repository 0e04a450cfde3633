// PixiJS 7 (7.2 and later) beside PixiJS 8: the places where the two majors differ, told apart per object by the
// members each one has (no version switch, nothing imported): a v8 Texture has `source`, a v7 one `baseTexture`;
// a v8 Container computes `getGlobalTransform()`, a v7 one keeps `transform.localTransform`; a v8 Graphics draws
// with `rect().fill()`, a v7 one with `beginFill()`/`drawRect()`. The types here are the few members read.

/** A matrix's fields, all the adapter reads of a PixiJS Matrix. */
export interface Affine {
    a: number;
    b: number;
    c: number;
    d: number;
    tx: number;
    ty: number;
}

/** A PixiJS 7 DisplayObject: its local transform and its parent. */
interface Node7 {
    parent: Node7 | null;
    transform: { localTransform: Affine; updateLocalTransform(): void };
}

/**
 * A PixiJS 7 BaseTexture: the pixel size and the resource (an image, canvas or bitmap in `source`, bytes in `data`).
 */
export interface BaseTexture7 {
    realWidth: number;
    realHeight: number;
    resource: unknown;
    valid: boolean;
    format: number;
    type: number;
    uid: number;
}

/** The four corners of a texture's quad in UV units (PixiJS 8's `uvs`, PixiJS 7's `_uvs`). */
export interface Uvs {
    x0: number;
    y0: number;
    x1: number;
    y1: number;
    x2: number;
    y2: number;
    x3: number;
    y3: number;
}

/** A PixiJS 7 Texture. */
export interface Texture7 {
    baseTexture: BaseTexture7 | null;
    _uvs: Uvs | null;
    destroyed: boolean;
    textureCacheIds: string[] | null;
}

/** A PixiJS 7 Graphics: fills and line styles as state, `drawRect` for rectangles. */
interface Graphics7 {
    line: Record<string, unknown>;
    beginFill(color: number, alpha: number): Graphics7;
    endFill(): Graphics7;
    drawRect(x: number, y: number, width: number, height: number): Graphics7;
    lineStyle(width: number, color?: number, alpha?: number, alignment?: number): Graphics7;
    lineStyle(options: Record<string, unknown>): Graphics7;
    moveTo(x: number, y: number): Graphics7;
    lineTo(x: number, y: number): Graphics7;
}

/** Whether `texture` (a checked object) is a PixiJS 7 Texture: it has a `baseTexture` and no `source`. */
export function isTexture7(texture: object): texture is Texture7 {
    return !('source' in texture) && 'baseTexture' in texture;
}

/** Whether `node` is a PixiJS 7 DisplayObject (it has no `getGlobalTransform`, and a v7 `transform`). */
export function isNode7(node: object): boolean {
    const t = (node as Partial<Node7>).transform;
    return (
        typeof t === 'object' &&
        t !== null &&
        typeof t.updateLocalTransform === 'function' &&
        typeof t.localTransform === 'object'
    );
}

/**
 * The global transform of a PixiJS 7 DisplayObject, computed fresh from the local transforms up to its root (as
 * PixiJS does when it renders: `worldTransform` lags until then), written into `out`.
 */
export function globalTransform7(node: object, out: Affine): Affine {
    let a = 1,
        b = 0,
        c = 0,
        d = 1,
        tx = 0,
        ty = 0;
    for (let n: Node7 | null = node as Node7; n; n = n.parent) {
        n.transform.updateLocalTransform();
        const l = n.transform.localTransform;
        // (a..ty) = L · (a..ty): the parent's local transform applies after the child's.
        const na = l.a * a + l.c * b,
            nb = l.b * a + l.d * b,
            nc = l.a * c + l.c * d,
            nd = l.b * c + l.d * d;
        const ntx = l.a * tx + l.c * ty + l.tx,
            nty = l.b * tx + l.d * ty + l.ty;
        a = na;
        b = nb;
        c = nc;
        d = nd;
        tx = ntx;
        ty = nty;
    }
    out.a = a;
    out.b = b;
    out.c = c;
    out.d = d;
    out.tx = tx;
    out.ty = ty;
    return out;
}

/** Whether `graphics` is a PixiJS 7 Graphics (it has `drawRect` and `beginFill` but not v8's `rect`). */
export function isGraphics7(graphics: object): boolean {
    const g = graphics as Partial<Graphics7> & { rect?: unknown };
    return (
        typeof g.rect !== 'function' &&
        typeof g.drawRect === 'function' &&
        typeof g.beginFill === 'function' &&
        typeof g.lineStyle === 'function'
    );
}

/** What drawHitmask draws, as callbacks over runs, edges and a box; each part is left out when its colour is null. */
export interface Drawing {
    color: number | null;
    alpha: number;
    outline: number | null;
    box: number | null;
    width: number;
    runs(rect: (x: number, y: number, n: number) => void): void;
    edges(line: (x0: number, y0: number, x1: number, y1: number) => void): void;
    bounds: { x: number; y: number; width: number; height: number };
}

/** Draws `what` into a PixiJS 7 Graphics; its line style is kept (the fill runs are drawn without a line). */
export function draw7(graphics: object, what: Drawing): void {
    const g = graphics as Graphics7;
    const saved = { ...g.line };
    g.lineStyle(0);
    if (what.color !== null) {
        g.beginFill(what.color, what.alpha);
        what.runs((x, y, n) => g.drawRect(x, y, n, 1));
        g.endFill();
    }
    if (what.outline !== null) {
        g.lineStyle(what.width, what.outline, 1, 0.5);
        what.edges((x0, y0, x1, y1) => g.moveTo(x0, y0).lineTo(x1, y1));
    }
    if (what.box !== null) {
        g.lineStyle(what.width, what.box, 1, 0.5);
        const { x, y, width, height } = what.bounds;
        g.drawRect(x, y, width, height);
    }
    g.lineStyle(saved);
}
