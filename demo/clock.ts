// The demo's fixed-rate clock: the simulation steps at 60 Hz whatever the display rate, a frame running the
// steps that fell due since the last one.

// requestAnimationFrame's intervals jitter around the display period (16.66 then 16.68 ms at 60 Hz): a step
// due within this many ms counts as due, so a 60 Hz display runs one step a frame rather than none, then one,
// and a clamp to one step (stress mode) loses no frames' steps. Without it, stress mode stepped on 0.6 of the
// frames at 60 fps: the game ran at 0.6x speed and the frames looked cheaper than they were.
const SLACK_MS = 1;

/** Steps due per frame at a fixed step length, at most `maxSteps` a frame. */
export class StepClock {
    #acc = 0;

    constructor(
        readonly stepMs: number,
        readonly maxSteps: number
    ) {}

    /** How many steps to run for a frame `dt` ms after the last; time past `maxSteps` steps is dropped (the game slows down, not the frame rate). */
    due(dt: number): number {
        let acc = this.#acc + dt,
            n = 0;
        while (acc >= this.stepMs - SLACK_MS && n < this.maxSteps) {
            acc -= this.stepMs;
            n++;
        }
        // Still a step owed after maxSteps: the frame fell behind, and the backlog is dropped.
        this.#acc = acc >= this.stepMs - SLACK_MS ? 0 : acc;
        return n;
    }

    /** Forgets the time owed (after a pause). */
    reset(): void {
        this.#acc = 0;
    }
}
