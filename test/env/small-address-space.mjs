// Preload (node --import) imitating a runtime that refuses to reserve more than 256 MiB for a WebAssembly
// memory (32-bit and some mobile browsers reserve the maximum up front).
const wasm = globalThis.WebAssembly,
    Memory = wasm.Memory;
wasm.Memory = function (descriptor) {
    if ((descriptor.maximum ?? 65536) > 4096) throw new RangeError('WebAssembly.Memory(): could not allocate memory');
    return new Memory(descriptor);
};
wasm.Memory.prototype = Memory.prototype;
