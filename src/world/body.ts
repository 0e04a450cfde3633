// A World body handle, its options, and the pair order (a.id, then bodies before layers, then b.id).
import type { CollisionLayer } from '../layers/layer.js';
import type { Mask } from '../core/mask.js';
import type { Transform } from '../core/transform.js';

/** Options of {@link World.add}. */
export interface BodyOptions<T = unknown> extends Transform {
    /** Left of the untransformed mask; floored when placing the mask. */
    x: number;
    /** Top of the untransformed mask; floored when placing the mask. */
    y: number;
    /** Collision mask (shared freely between bodies). */
    mask: Mask;
    /** Category bits; 0 makes the body decorative (skipped by pairs and queries at no cost). @default 1 */
    category?: number;
    /** Categories this body collides with; both bodies must accept each other (Box2D). @default 0xffffffff */
    collidesWith?: number;
    /** Bodies with the same non-zero group never collide with each other. @default 0 */
    group?: number;
    /**
     * A one-way platform for `World.moveAndSlide`: it holds bodies coming down onto it and lets them pass sideways and
     * upward (pairs are unchanged). @default false
     */
    oneWay?: boolean;
    /** Anything the game wants to find from the body. */
    data?: T;
}

/** Options of {@link World.addLayer}. */
export interface LayerOptions<T = unknown> {
    /** @default 1 */
    category?: number;
    /** @default 0xffffffff */
    collidesWith?: number;
    /**
     * A one-way platform for `World.moveAndSlide`: it holds a body coming down onto it and lets it pass sideways and
     * upward (pairs are unchanged). @default false
     */
    oneWay?: boolean;
    data?: T;
}

/** Filter changes for {@link World.setFilter}; omitted fields keep their value. */
export interface Filter {
    category?: number;
    collidesWith?: number;
    group?: number;
}

/** One colliding pair: `a` was added before `b`; a layer is always `b`. */
export interface Pair<T = unknown> {
    a: Body<T>;
    b: Body<T>;
}

// What a body handle reads of its World's state (world/state.ts satisfies it): the handle needs nothing more.
interface BodyStore {
    readonly posX: Float64Array;
    readonly posY: Float64Array;
    readonly source: readonly (Mask | null)[];
}

/** A body in a {@link World}: a light handle; its state lives in the world's typed arrays. */
export class Body<T = unknown> {
    /** Unique, increasing in the order bodies and layers were added; never reused. */
    readonly id: number;
    /** The layer this handle stands for, or `null` for a sprite body. */
    readonly layer: CollisionLayer | null;
    /** The game's own data. */
    data: T;
    /** @internal Slot in the world's arrays (layer index for layers); −1 once removed. */
    slot: number;
    /** @internal The state of the World the body belongs to. */
    declare readonly state: BodyStore;

    /** @internal Use {@link World.add} or {@link World.addLayer}. */
    constructor(state: BodyStore, id: number, slot: number, data: T, layer: CollisionLayer | null) {
        // Not enumerable, so logging a body shows the body rather than its whole world.
        Object.defineProperty(this, 'state', { value: state });
        this.id = id;
        this.slot = slot;
        this.data = data;
        this.layer = layer;
    }

    /** Whether the body was removed from its world. */
    get removed(): boolean {
        return this.slot < 0;
    }
    /** Position as given (not floored); 0 for layers. */
    get x(): number {
        return this.layer || this.slot < 0 ? 0 : this.state.posX[this.slot];
    }
    get y(): number {
        return this.layer || this.slot < 0 ? 0 : this.state.posY[this.slot];
    }
    /** The untransformed mask, or `null` for a layer. */
    get mask(): Mask | null {
        return this.layer || this.slot < 0 ? null : this.state.source[this.slot];
    }

    /** `<Body id>`. */
    toString(): string {
        return `<Body ${this.id}>`;
    }
}

// Pair order: by a.id, then bodies before layers, then by b.id.
interface Ordered {
    readonly id: number;
    readonly layer: CollisionLayer | null;
}

/** @internal */
export function comparePairs(a1: Ordered, b1: Ordered, a2: Ordered, b2: Ordered): number {
    return a1.id - a2.id || (b1.layer ? 1 : 0) - (b2.layer ? 1 : 0) || b1.id - b2.id;
}

/** @internal */
export function byId(p: Ordered, q: Ordered): number {
    return (p.layer ? 1 : 0) - (q.layer ? 1 : 0) || p.id - q.id;
}

// Insertion sort for the usual handful of results; Array#sort (which may allocate) beyond that.
/** @internal */
export function sortById<T>(out: Body<T>[], n: number): void {
    if (n > 32) {
        out.sort(byId);
        return;
    }
    for (let i = 1; i < n; i++) {
        const b = out[i];
        let j = i - 1;
        while (j >= 0 && byId(out[j], b) > 0) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = b;
    }
}
