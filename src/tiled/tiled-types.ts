// The public types of hitmask/tiled: what tiledCollision takes and gives back.
import type { Mask } from '../core/mask.js';
import type { TileMap } from '../layers/tilemap.js';
import type { RGBAData } from '../base/types.js';

/** Decoded RGBA pixels of an image a map names (a canvas `ImageData`, hitmask/node's `RGBAImage`). */
export interface TiledImageData {
    readonly width: number;
    readonly height: number;
    readonly data: RGBAData;
}

/**
 * An image a map names: decoded pixels, or (in a browser) anything a canvas can draw: an `HTMLImageElement` that has
 * loaded, an `ImageBitmap`, a canvas (Phaser's `textures.get(key).getSourceImage()`).
 */
export type TiledImage = TiledImageData | { readonly width: number; readonly height: number };

/**
 * What the map names, already loaded. Keys are paths as the naming file writes them, or resolved against the map's
 * folder (`../tilesets/t.png` for `t.png` named by `../tilesets/t.tsj`); an image may also be keyed by its tileset's
 * name (as Phaser's `addTilesetImage(name, key)` pairs them).
 */
export interface TiledResources {
    /** External tilesets: the parsed JSON (`.tsj`/`.json`) or the TSX text. */
    readonly tilesets?: Readonly<Record<string, object | string>>;
    /** Tileset and tile images. */
    readonly images?: Readonly<Record<string, TiledImage>>;
    /** Object templates (`.tx` text or the parsed `.tj` JSON), by the path the map's objects name. */
    readonly templates?: Readonly<Record<string, object | string>>;
}

/** What `solid` is asked about a tile. */
export interface TiledTileInfo {
    /** Its gid without flip bits. */
    readonly gid: number;
    /** Its id in its tileset. */
    readonly id: number;
    /** Its tileset's name. */
    readonly tileset: string;
    /** Its class (Tiled ≥ 1.9; `type` before). */
    readonly class: string;
    readonly properties: Readonly<Record<string, unknown>>;
}

/**
 * Which pixels of a tile are solid: `'auto'` its collision-editor shapes where it has any, else its pixels;
 * `'alpha'` its pixels; `'shapes'` its shapes (a tile without is empty); a function choosing per tile, `false`
 * leaving the tile out.
 */
export type TiledSolid = 'auto' | 'alpha' | 'shapes' | ((tile: TiledTileInfo) => 'auto' | 'alpha' | 'shapes' | false);

/** Sizes past which a map is refused before anything is allocated. */
export interface TiledLimits {
    /** Most cells of one tile layer (its chunks' bounding box on an infinite map): default 2^24. */
    cells?: number;
    /** Most tiles of one tileset: default 2^16. */
    tiles?: number;
    /** Most pixels of one image, tile or object mask: default 2^26. */
    pixels?: number;
}

/** Options of `tiledCollision`, `loadTiledMap` and `readTiledMap`. */
export interface TiledOptions {
    /** Which pixels of a tile are solid (default `'auto'`). */
    solid?: TiledSolid;
    /** A pixel is solid where its alpha is above this (default 127). */
    alphaThreshold?: number;
    /** Size limits. */
    limits?: TiledLimits;
    /** The map's file name in messages (default `'map'`; the readers pass the path). */
    file?: string;
}

/** A tile layer of a Tiled map as a collision layer. */
export interface TiledTileLayer {
    readonly id: number;
    readonly name: string;
    readonly class: string;
    readonly properties: Readonly<Record<string, unknown>>;
    /** Whether Tiled shows it (hidden layers are built too: collision layers often are). */
    readonly visible: boolean;
    /** Its solid pixels in map pixel coordinates: add it to a World, move against it, cast rays at it. */
    readonly layer: TileMap;
}

/** An object of an object layer. */
export interface TiledObject {
    readonly id: number;
    readonly name: string;
    readonly class: string;
    /** The name of its object layer. */
    readonly layerName: string;
    readonly properties: Readonly<Record<string, unknown>>;
    /** Its mask's top-left in map pixels; a point's own position. */
    readonly x: number;
    readonly y: number;
    /** The map pixels it covers; `null` for points and texts. */
    readonly mask: Mask | null;
}

/** A Tiled map's collision: its tile layers and objects. */
export interface TiledCollision {
    /** The map's extent in pixels: columns × tileWidth (an infinite map: its layers' extent). */
    readonly width: number;
    readonly height: number;
    /** Its top-left in map pixels: 0, 0 but on an infinite map. */
    readonly x: number;
    readonly y: number;
    readonly tileWidth: number;
    readonly tileHeight: number;
    /** Every tile layer in draw order, groups flattened. */
    readonly layers: readonly TiledTileLayer[];
    /** Every object of every object layer, in draw order. */
    readonly objects: readonly TiledObject[];
    /** The first tile layer named `name`; an Error naming the layers there are when none is. */
    layer(name: string): TileMap;
}
