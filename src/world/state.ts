// A World's state: the bodies in typed arrays by slot, the slot bookkeeping, the grid, the layers, the last
// step's pairs and the event history. Every part of the World (slots, grid upkeep, pairs, events, queries,
// contacts, sweeps, rays) takes this state, never the World, so dependencies run one way: world.ts on top.
import { describe, wrongType } from '../base/check.js';
import type { Point } from '../base/types.js';
import { Mask } from '../core/mask.js';
import { TransformCache, type Transform } from '../core/transform.js';
import type { ThreadPool } from '../threads/pool.js';
import { Body } from './body.js';
import { PairEvents } from './events.js';
import { Grid, type Boxes } from './grid.js';
import { PairList } from './pair-list.js';

/** @internal What a World holds; the World's public methods read and write it through the functions of world/. */
export class WorldState<T> {
    // Per slot (a body's index in the arrays; recycled after removal at the next detection).
    /** Raw positions, as given. */
    posX = new Float64Array(64);
    posY = new Float64Array(64);
    /** Untransformed masks. */
    source: (Mask | null)[] = [];
    /** Transformed masks, the ones tested. */
    masks: (Mask | null)[] = [];
    /** The transform (angle as given); read when placing a mask, not in the pair loop. */
    tf: Required<Transform>[] = [];
    /** Boxes of the placed masks, and the placed mask's offset from the floored position. */
    boxes: Boxes = {
        x0: new Float64Array(64),
        y0: new Float64Array(64),
        x1: new Float64Array(64),
        y1: new Float64Array(64)
    };
    offX = new Int32Array(64);
    offY = new Int32Array(64);
    /** Filters: category (0 = removed or decorative), collidesWith, group. */
    cat = new Int32Array(64);
    colw = new Int32Array(64);
    grp = new Int32Array(64);
    bodies: (Body<T> | null)[] = [];
    /** Body ids (as doubles: ids are never reused and may pass 2^31 in a long game). */
    idOf = new Float64Array(64);
    /**
     * Snapshots: the source mask's id in the snapshot table (−1 until a snapshot names it), whether the handle is
     * remembered.
     */
    snapMask = new Int32Array(64);
    /** Per-body flags: bit 0, a one-way platform (`BodyOptions.oneWay`); and how many live bodies are one-way. */
    flags = new Int32Array(64);
    oneWayBodies = 0;
    /** 1 where the transform is the identity (snapshots write transforms only for the others). */
    tfIdentity = new Uint8Array(64);
    snapSeen = new Uint8Array(64);

    // Slot bookkeeping: slots in use, free ones, removals waiting for the next detection, ids.
    cap = 64;
    used = 0;
    live = 0;
    nextId = 1;
    free: number[] = [];
    pendingFree: number[] = [];

    // Id order: slots in the order their bodies were added, each slot's rank in it, and the bodies by rank.
    order = new Int32Array(64);
    orderCount = 0;
    rank = new Int32Array(64);
    byRank: Body<T>[] = [];
    ranksDirty = false;

    // The grid and its upkeep: the slots changed since it was built, the last build's list and bounds.
    readonly grid = new Grid();
    /** Grid cell side, or 0 to choose it from the mean body side at each build. */
    readonly fixedCell: number;
    gridValid = false;
    removedSinceBuild = false;
    moved = new Uint8Array(64);
    movedList = new Int32Array(64);
    movedCount = 0;
    list = new Int32Array(64);
    /** Bounds of the boxes at the last grid build: x0, y0, x1, y1. */
    bounds = [0, 0, 0, 0];
    // Query scratch: the grid's per-slot marks and their token, and the slots a query found.
    seen = new Int32Array(64);
    qbuf = new Int32Array(64);
    token = 0;

    // Static layers, in the order added, with their filters and their bounds at the last detection.
    layers: Body<T>[] = [];
    layerCat: number[] = [];
    layerColw: number[] = [];
    /** Layers that hold bodies only from above (one-way platforms) in `World.moveAndSlide`. */
    layerOneWay: boolean[] = [];
    layerBox = new Float64Array(8);

    // The narrow phase: the pair list, the batch results per candidate, the last step's estimated words, the threads.
    pairList = new PairList();
    batchHits = new Uint8Array(1024);
    lastWork = 0;
    pool: ThreadPool | null = null;
    /** The last detection's pairs, in pair order. */
    hitA: Body<T>[] = [];
    hitB: Body<T>[] = [];
    hitCount = 0;
    /** Listeners and the previous step's pairs. */
    readonly events = new PairEvents<T>();
    /** Whether `World.moveAndSlide` is moving a body: a layer's overlaps() may not change the World meanwhile. */
    moving = false;

    readonly transforms: TransformCache;
    // Scratch of queries, contacts and sweeps.
    rectMask = new Mask(0, 0);
    scratch: Body<T>[] = [];
    point: Point = { x: 0, y: 0 };

    constructor(fixedCell: number, angleSteps: number) {
        this.fixedCell = fixedCell;
        this.transforms = new TransformCache(angleSteps);
    }
}

/** @internal Bit of `WorldState.flags`: a one-way platform. */
export const ONE_WAY = 1;

/** @internal The slot of a live body of this state; throws naming `method` for anything else (a layer included). */
export function slotOf<T>(st: WorldState<T>, body: Body<T>, method: string): number {
    if (!(body instanceof Body))
        throw wrongType(`${method}() needs a Body returned by world.add(), got ${describe(body)}.`);
    if (body.state !== st) throw new Error(`${method}(): ${body} belongs to another World.`);
    if (body.slot < 0)
        throw new Error(`${method}(): ${body} was removed from this World; add it again with world.add().`);
    if (body.layer)
        throw wrongType(`${method}(): ${body} is a layer; only bodies added with world.add() can be used here.`);
    return body.slot;
}

/** @internal Whether `body` is a live layer handle of this state. */
export function isLayerOf<T>(st: WorldState<T>, body: Body<T>): boolean {
    return body instanceof Body && body.layer !== null && body.state === st && body.slot >= 0;
}
