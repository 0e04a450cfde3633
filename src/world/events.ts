// begin/stay/end: a World step's pairs merged with the previous step's, in pair order, delivered to the
// listeners (the World's, then each body's own); what a listener throws is kept until every event is delivered
// and the pairs are committed.
import { comparePairs, type Body } from './body.js';
import { describe } from '../base/check.js';
import { checkFunction } from '../base/check-types.js';

/** A world-level pair listener; `a` and `b` follow the pair order of {@link World.collisions}. */
export type PairListener<T> = (a: Body<T>, b: Body<T>) => void;

/**
 * A listener of one body (or layer), registered with `world.on(event, body, listener)`: `self` is that body and
 * `other` the body or layer of the pair it is in.
 */
export type BodyListener<T> = (self: Body<T>, other: Body<T>) => void;

// A body's own listeners, per event.
type Lists<T> = Record<WorldEvent, BodyListener<T>[]>;

/**
 * Pair events: `begin` on the first step a pair overlaps, `stay` on later ones, `end` on the first step it does not.
 */
export type WorldEvent = 'begin' | 'stay' | 'end';

const EVENTS: readonly WorldEvent[] = ['begin', 'stay', 'end'];

/** @internal The listeners of a World and the pairs of its previous step. */
export class PairEvents<T> {
    /** Whether listeners are running (detection is refused meanwhile). */
    dispatching = false;
    #listeners: Record<WorldEvent, PairListener<T>[]> = { begin: [], stay: [], end: [] };
    // Each body's own listeners (weakly: a dropped handle takes its listeners with it), and how many are
    // registered, so a World without any pays no lookup per event.
    #byBody = new WeakMap<Body<T>, Lists<T>>();
    #bodyCount = 0;
    #prevA: Body<T>[] = [];
    #prevB: Body<T>[] = [];
    #thrown: unknown[] = [];

    on(event: WorldEvent, listener: PairListener<T>): void {
        check(event, listener);
        this.#listeners[event].push(listener);
    }

    off(event: WorldEvent, listener: PairListener<T>): void {
        check(event, listener);
        const list = this.#listeners[event],
            i = list.indexOf(listener);
        if (i >= 0) list.splice(i, 1);
    }

    /** Registers a listener of `body` (a body or layer of this World, checked by the caller). */
    onBody(event: WorldEvent, body: Body<T>, listener: BodyListener<T>): void {
        check(event, listener);
        let lists = this.#byBody.get(body);
        if (lists === undefined) this.#byBody.set(body, (lists = { begin: [], stay: [], end: [] }));
        lists[event].push(listener);
        this.#bodyCount++;
    }

    offBody(event: WorldEvent, body: Body<T>, listener: BodyListener<T>): void {
        check(event, listener);
        const list = this.#byBody.get(body)?.[event],
            i = list === undefined ? -1 : list.indexOf(listener);
        if (i < 0) return;
        (list as BodyListener<T>[]).splice(i, 1);
        this.#bodyCount--;
    }

    /** The previous step's pairs (read by snapshots; not to be changed). */
    get prevA(): readonly Body<T>[] {
        return this.#prevA;
    }
    get prevB(): readonly Body<T>[] {
        return this.#prevB;
    }

    /** Replaces the previous step's pairs (a restored snapshot's, copied); they must be in pair order. */
    setPrev(a: readonly Body<T>[], b: readonly Body<T>[]): void {
        const pa = this.#prevA,
            pb = this.#prevB,
            n = a.length;
        for (let k = 0; k < n; k++) {
            pa[k] = a[k];
            pb[k] = b[k];
        }
        pa.length = pb.length = n;
    }

    /**
     * Delivers the events of a step whose pairs are hitA/hitB[0..n), commits them, then rethrows what listeners threw.
     */
    dispatch(hitA: readonly Body<T>[], hitB: readonly Body<T>[], n: number): void {
        const prevA = this.#prevA,
            prevB = this.#prevB,
            prevCount = prevA.length;
        this.dispatching = true;
        try {
            let i = 0,
                j = 0;
            while (i < prevCount || j < n) {
                const c = i === prevCount ? 1 : j === n ? -1 : comparePairs(prevA[i], prevB[i], hitA[j], hitB[j]);
                if (c < 0) {
                    this.#emit('end', prevA[i], prevB[i]);
                    i++;
                } else if (c > 0) {
                    this.#emit('begin', hitA[j], hitB[j]);
                    j++;
                } else {
                    this.#emit('stay', hitA[j], hitB[j]);
                    i++;
                    j++;
                }
            }
        } finally {
            this.dispatching = false;
        }
        for (let k = 0; k < n; k++) {
            prevA[k] = hitA[k];
            prevB[k] = hitB[k];
        }
        prevA.length = prevB.length = n;
        // Errors from listeners surface only now, with every event of the step delivered and the pairs
        // committed, so begin/stay/end stay balanced whatever user code throws.
        if (this.#thrown.length > 0) {
            const thrown = this.#thrown;
            this.#thrown = [];
            throw thrown.length === 1
                ? thrown[0]
                : new AggregateError(
                      thrown,
                      `${thrown.length} collision listeners threw during World.step(); see .errors.`
                  );
        }
    }

    // The World's listeners with (a, b), then a's own with (a, b), then b's own with (b, a), each list in
    // registration order.
    #emit(event: WorldEvent, a: Body<T>, b: Body<T>): void {
        this.#call(this.#listeners[event], a, b);
        if (this.#bodyCount === 0) return;
        const la = this.#byBody.get(a)?.[event];
        if (la !== undefined) this.#call(la, a, b);
        const lb = this.#byBody.get(b)?.[event];
        if (lb !== undefined) this.#call(lb, b, a);
    }

    #call(list: readonly PairListener<T>[], a: Body<T>, b: Body<T>): void {
        for (let k = 0; k < list.length; k++) {
            // A body removed by an earlier listener is silent for the rest of the step.
            if (a.slot < 0 || b.slot < 0) return;
            try {
                list[k](a, b);
            } catch (e) {
                this.#thrown.push(e);
            }
        }
    }
}

function check(event: WorldEvent, listener: unknown): void {
    if (!EVENTS.includes(event))
        throw new Error(`Unknown event ${describe(event)}; expected "begin", "stay" or "end".`);
    checkFunction('listener', listener);
}
