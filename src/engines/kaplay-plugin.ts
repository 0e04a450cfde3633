// `kaplay({ plugins: [hitmaskPlugin] })`: tells hitmask/kaplay which Kaplay context names the sprites (a game object
// knows its sprite only by name). Type-only Kaplay import.
import type { KAPLAYCtx } from 'kaplay';
import { useKaplay } from './kaplay-frames.js';

/** What {@link hitmaskPlugin} adds to the Kaplay context: nothing yet besides binding it. */
export type HitmaskPlugin = Record<never, never>;

/**
 * The Kaplay plugin of hitmask/kaplay: `kaplay({ plugins: [hitmaskPlugin] })`, or `hitmaskPlugin(k)` on a context made
 * without it. The adapter's functions resolve sprite names in this context (the last one given).
 */
export function hitmaskPlugin(k: KAPLAYCtx): HitmaskPlugin {
    useKaplay(k);
    return {};
}
