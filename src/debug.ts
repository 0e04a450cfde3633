// hitmask/debug: entry point.
export * from './debug/draw.js';
