// hitmask/pixi: entry point.
export * from './engines/pixi.js';
