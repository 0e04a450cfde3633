// `pixelCollisions(actor)`: Excalibur's own collision events and resolution, pixel-exact. Excalibur's collision system
// gets its contacts from the scene's collision processor (`narrowphase`), then emits `precollision`, resolves, emits
// `postcollision`, and derives `collisionstart` and `collisionend` from the contacts kept: the scene's narrowphase is
// wrapped once so that a contact between two such actors is kept only while their pixels touch. Pointer events come
// through the collider's `contains`, which becomes the pixel test. Type-only Excalibur import.
import type { Actor, Collider, CollisionContact, Scene } from 'excalibur';
import { typeError } from '../base/check.js';
import { cacheOf, placedOverlap, type PlacedSprite } from './sprite.js';
import { hitmaskFor, hitTest, type HitmaskOptions } from './excalibur-adapter.js';

// The actors with pixel collisions, with their options.
const pixelActors = new WeakMap<object, HitmaskOptions>();
// The collision processors whose narrowphase is wrapped, and the colliders whose contains is the pixel test.
const wrapped = new WeakSet<object>();
const patched = new WeakSet<object>();

type Narrowphase = (pairs: unknown[], stats?: unknown) => CollisionContact[];

// Keeps a contact between two pixel actors only while their pixels touch. Each actor is placed once per call (the
// placed masks are the transform cache's, shared), then each contact is one box test and one AND of the placed masks:
// in a crowd an actor is in several contacts.
function wrapScene(scene: Scene): void {
    const processor = scene.physics.collisionProcessor as unknown as { narrowphase: Narrowphase };
    if (wrapped.has(processor)) return;
    wrapped.add(processor);
    const own = processor.narrowphase;
    const placed = new Map<Actor, PlacedSprite | null>();
    const place = (actor: Actor, options: HitmaskOptions): PlacedSprite | null => {
        let p = placed.get(actor);
        if (p === undefined) placed.set(actor, (p = actor.isKilled() ? null : hitmaskFor(actor, options)));
        return p;
    };
    processor.narrowphase = function (pairs: unknown[], stats?: unknown): CollisionContact[] {
        const contacts = own.call(this, pairs, stats);
        try {
            return contacts.filter(c => {
                const a = c.colliderA.owner as unknown as Actor,
                    b = c.colliderB.owner as unknown as Actor;
                const oa = pixelActors.get(a),
                    ob = pixelActors.get(b);
                if (!oa || !ob) return true;
                const A = place(a, oa),
                    B = place(b, ob);
                return A !== null && B !== null && placedOverlap(A, B);
            });
        } finally {
            placed.clear();
        }
    };
}

// Makes the actor's current collider answer `contains` by its pixels, and its pointer ask the collider only.
function patchPointer(actor: Actor, options: HitmaskOptions): void {
    const collider: Collider | undefined = actor.collider.get();
    if (collider && !patched.has(collider)) {
        patched.add(collider);
        collider.contains = p => hitTest(actor, p.x, p.y, options);
    }
    actor.pointer.useColliderShape = true;
    actor.pointer.useGraphicsBounds = false;
}

/**
 * Pixel-exact collisions and picking for an actor: between two actors given it, `collisionstart`, `precollision`,
 * `postcollision` and `collisionend` fire, and the contact resolves, only in the frames where their pixels touch
 * (against an actor without it, the colliders decide, as before); pointer events (`pointerdown`, `pointerenter`, …)
 * fire only over its solid pixels. Its collider still finds the candidates: keep it around the sprite.
 */
export function pixelCollisions(actor: Actor, options?: HitmaskOptions): void {
    const a = actor as Partial<Actor> | null;
    if (typeof a !== 'object' || a === null || typeof a.on !== 'function' || typeof a.collider !== 'object')
        throw typeError('actor', 'an Excalibur Actor', actor);
    const opts: HitmaskOptions = { cache: cacheOf(options) };
    if (pixelActors.has(actor)) {
        pixelActors.set(actor, opts);
        return;
    }
    pixelActors.set(actor, opts);
    // The scene's processor is wrapped as soon as the actor is in one (again each frame: a scene's physics
    // configuration may replace its processor), and the pointer follows a collider replaced since.
    const hook = () => {
        const o = pixelActors.get(actor);
        if (!o) return;
        if (actor.scene) wrapScene(actor.scene);
        patchPointer(actor, o);
    };
    hook();
    actor.on('initialize', hook);
    actor.on('preupdate', hook);
}
