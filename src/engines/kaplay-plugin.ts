// `kaplay({ plugins: [hitmaskPlugin] })`: tells hitmask/kaplay which Kaplay context names the sprites (a game object
// knows its sprite only by name), and gives `pixelArea()`, the component that makes area()'s collisions and picking
// pixel-exact. Kaplay reports a pair's collision to each object as a `collideUpdate` event, from which area() derives
// onCollide and onCollideEnd and body() resolves: pixelArea() lets that event through only while the two objects'
// pixels touch. Type-only Kaplay import.
import type { Comp, GameObj, KAPLAYCtx } from 'kaplay';
import { cacheOf, placedOverlap, type PlacedSprite } from './sprite.js';
import { hitmaskFor, hitTest, type HitmaskOptions, type KaplaySpriteLike, type XY } from './kaplay-adapter.js';
import { useKaplay } from './kaplay-frames.js';

/** The `pixelArea()` component: pixel-exact collisions and picking for an object with `area()` and `sprite()`. */
export interface PixelAreaComp extends Comp {
    id: 'pixelArea';
    require: ['area', 'sprite'];
}

/** What {@link hitmaskPlugin} adds to the Kaplay context: `k.pixelArea()`. */
export interface HitmaskPlugin {
    pixelArea: typeof pixelArea;
}

// What pixelArea reads and replaces of its object.
type Host = KaplaySpriteLike & {
    id: number;
    has(tag: string): boolean;
    trigger(name: string, ...args: unknown[]): void;
    hasPoint(p: XY): boolean;
};

// Updates seen (fixed and per frame: Kaplay checks collisions after both; every pixelArea object counts its own, only
// the change matters): a pair's answer holds for one check, so that both objects of a pair hear the same one even after
// the first one's resolution moved them. Each object is placed once per check, where it stands (placed again when a
// resolution moved it since), so that in a crowd an object in several pairs is not placed for each.
let tick = 0;
let answersTick = -1;
const answers = new Map<number, Map<number, boolean>>();
interface Placement {
    x: number;
    y: number;
    placed: PlacedSprite | null;
}
const placements = new Map<Host, Placement>();

function isPixel(o: unknown): o is Host {
    const g = o as Partial<Host> | null;
    return typeof g === 'object' && g !== null && typeof g.has === 'function' && g.has('pixelArea');
}

// The object's placed mask in this check (null once destroyed: it touches nothing).
function placementOf(o: Host, options: HitmaskOptions): PlacedSprite | null {
    const x = o.pos?.x ?? 0,
        y = o.pos?.y ?? 0;
    let p = placements.get(o);
    if (p === undefined || p.x !== x || p.y !== y) {
        const placed = o.exists?.() === false ? null : hitmaskFor(o, options);
        placements.set(o, (p = { x, y, placed }));
    }
    return p.placed;
}

// Whether the pixels of `a` and `b` touch in this collision check (decided once per pair and check).
function touching(a: Host, b: Host, options: HitmaskOptions): boolean {
    if (answersTick !== tick) {
        answers.clear();
        placements.clear();
        answersTick = tick;
    }
    const lo = a.id < b.id ? a.id : b.id,
        hi = a.id < b.id ? b.id : a.id;
    let row = answers.get(lo);
    if (row === undefined) answers.set(lo, (row = new Map()));
    let hit = row.get(hi);
    if (hit === undefined) {
        const A = placementOf(a, options),
            B = placementOf(b, options);
        row.set(hi, (hit = A !== null && B !== null && placedOverlap(A, B)));
    }
    return hit;
}

/**
 * The component that makes an object's collisions and picking pixel-exact: `add([sprite('ship'), area(),
 * pixelArea(), body()])`. Between two objects that both have it, `onCollide`, `onCollideUpdate` and `onCollideEnd`
 * fire, and `body()` resolves, only in the collision checks (after each fixed step and each frame's update)
 * where their pixels touch (against an object without it, area()'s
 * own shapes decide, as before). `onClick`, `onHover` and `isHovering` answer only over its solid pixels. Needs the
 * plugin (`kaplay({ plugins: [hitmaskPlugin] })`).
 */
export function pixelArea(options?: HitmaskOptions): PixelAreaComp {
    const opts: HitmaskOptions = { cache: cacheOf(options) };
    let host: Host | null = null;
    let trigger: Host['trigger'] | null = null;
    let hasPoint: Host['hasPoint'] | null = null;
    return {
        id: 'pixelArea',
        require: ['area', 'sprite'],
        add(this: GameObj) {
            const obj = this as unknown as Host;
            host = obj;
            const own = (trigger = obj.trigger);
            hasPoint = obj.hasPoint;
            obj.trigger = function (name: string, ...args: unknown[]): void {
                if (name === 'collideUpdate' && isPixel(args[0]) && !touching(obj, args[0], opts)) return;
                own.call(this, name, ...args);
            };
            obj.hasPoint = (p: XY) => hitTest(obj, p.x, p.y, opts);
        },
        fixedUpdate() {
            tick++;
        },
        update() {
            tick++;
        },
        destroy() {
            if (host && trigger && hasPoint) {
                host.trigger = trigger;
                host.hasPoint = hasPoint;
            }
            host = trigger = hasPoint = null;
        }
    };
}

/**
 * The Kaplay plugin of hitmask/kaplay: `kaplay({ plugins: [hitmaskPlugin] })`, or `hitmaskPlugin(k)` on a context made
 * without it. The adapter's functions resolve sprite names in this context (the last one given); `k.pixelArea()` is
 * {@link pixelArea}.
 */
export function hitmaskPlugin(k: KAPLAYCtx): HitmaskPlugin {
    useKaplay(k);
    return { pixelArea };
}
