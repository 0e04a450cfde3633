// `this.load.hitmask(key, url, textures)`: a Phaser loader file type for `.hitmask` atlases. The Phaser
// namespace comes in as an argument (its File classes are needed at run time), never as an import.
import type * as Phaser from 'phaser';
import { describe, wrongType } from '../base/check.js';
import { checkString } from '../base/check-types.js';
import { MaskAtlas } from '../core/atlas.js';
import { addMaskAtlas } from './phaser-frames.js';

declare global {
    // The loader's methods live on Phaser's global namespace: only a namespace declaration can add one.
    // eslint-disable-next-line @typescript-eslint/no-namespace
    namespace Phaser.Loader {
        interface LoaderPlugin {
            /**
             * Loads a `.hitmask` atlas (hitmask/phaser, after `registerHitmaskLoader(Phaser)`), stores the `MaskAtlas`
             * in `this.cache.binary` under `key`, and binds it to the textures `textures` (default: `key`).
             */
            hitmask(
                key: string,
                url?: string,
                textures?: string | string[],
                xhrSettings?: Phaser.Types.Loader.XHRSettingsObject
            ): this;
        }
    }
}

const registered = new WeakSet<object>();

/**
 * Adds the `hitmask` file type to Phaser's loader: call once with the Phaser namespace, before
 * `new Phaser.Game(…)`. Then `this.load.hitmask(key, url, textures?)` in `preload` loads a `.hitmask`
 * atlas made by `hitmask build`; the frames of the textures named `textures` (default: the same `key`)
 * take their masks from it. A corrupt file fails to process (Phaser logs `Failed to process file`, hitmask
 * warns why) and binds nothing: never a wrong mask.
 */
export function registerHitmaskLoader(phaser: typeof Phaser): void {
    if (
        typeof phaser !== 'object' ||
        phaser === null ||
        typeof phaser.Loader?.FileTypesManager?.register !== 'function'
    ) {
        throw wrongType(
            `registerHitmaskLoader needs the Phaser namespace (import Phaser from 'phaser'), got ${describe(phaser)}.`
        );
    }
    if (registered.has(phaser)) return;
    registered.add(phaser);
    const { FileTypesManager, FileTypes, FILE_PROCESSING } = phaser.Loader;

    class HitmaskFile extends FileTypes.BinaryFile {
        readonly textures: string[];

        constructor(
            loader: Phaser.Loader.LoaderPlugin,
            key: string,
            url: string | undefined,
            textures: string | string[] | undefined,
            xhrSettings: Phaser.Types.Loader.XHRSettingsObject | undefined
        ) {
            super(loader, { key, url, xhrSettings, extension: 'hitmask' });
            this.textures = textures === undefined ? [key] : typeof textures === 'string' ? [textures] : [...textures];
        }

        override onProcess(): void {
            this.state = FILE_PROCESSING;
            try {
                this.data = MaskAtlas.from(new Uint8Array(this.xhrLoader?.response as ArrayBuffer));
            } catch (e) {
                // Phaser logs the failure and emits `loaderror`; say why as well.
                console.warn(`hitmask: ${this.key}: ${e instanceof Error ? e.message : String(e)}`);
                this.onProcessError();
                return;
            }
            this.onProcessComplete();
        }

        override addToCache(): void {
            super.addToCache();
            addMaskAtlas(this.data as MaskAtlas, this.textures, this.loader.systems.game);
        }
    }

    FileTypesManager.register(
        'hitmask',
        function (
            this: Phaser.Loader.LoaderPlugin,
            key: string,
            url?: string,
            textures?: string | string[],
            xhrSettings?: Phaser.Types.Loader.XHRSettingsObject
        ) {
            checkString('load.hitmask: key', key);
            this.addFile(new HitmaskFile(this, key, url, textures, xhrSettings));
            return this;
        }
    );
}
