// hitmask/node: Node-only helpers (image decoding, files). Filled by the asset-pipeline work.
export { Mask } from '../index.js';
