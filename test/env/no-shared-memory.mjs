// Preload (node --import) that removes SharedArrayBuffer before hitmask loads, as in a web page without
// cross-origin isolation: the WebAssembly kernels must then run on a plain, growable memory.
delete globalThis.SharedArrayBuffer;
