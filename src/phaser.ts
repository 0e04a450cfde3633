// hitmask/phaser: entry point.
export * from './engines/phaser.js';
