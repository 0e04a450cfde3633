// Object templates (`.tx` / `.tj`): an object naming a template takes the template's fields where it gives none of
// its own, and a template's tile gid is moved to the gid of the same tileset in the map.
import { resolvePath, folderOf } from './tiled-resources.js';
import { parseXml, templateFromXml } from './tiled-xml.js';
import { GID_MASK } from './tiled-tiles.js';

type Json = Record<string, unknown>;

/** A template from TX or JSON text (or already parsed). */
export function parseTemplate(t: unknown, file: string): Json {
    if (typeof t === 'string') {
        const text = t.trimStart();
        if (text.startsWith('<')) return templateFromXml(parseXml(text, 'template', file));
        try {
            t = JSON.parse(text);
        } catch (e) {
            throw new Error(`${file}: the template is neither TX nor JSON (${(e as Error).message}).`, { cause: e });
        }
    }
    if (t === null || typeof t !== 'object' || Array.isArray(t))
        throw new Error(`${file}: the template is not an object.`);
    const tpl = t as Json;
    if (tpl.object === null || typeof tpl.object !== 'object')
        throw new Error(`${file}: the template holds no object.`);
    return tpl;
}

/**
 * Object `o` with its template's fields filled in: `templates` holds the parsed templates by path (resolved against
 * the map's folder), `tilesets` the map's tileset entries.
 */
export function withTemplate(
    o: Json,
    templates: Record<string, unknown>,
    tilesets: readonly Json[],
    where: string
): Json {
    const path = resolvePath('', String(o.template));
    const raw = Object.prototype.hasOwnProperty.call(templates, path) ? templates[path] : templates[String(o.template)];
    if (raw === undefined)
        throw new Error(
            `${where}: it names the template "${String(o.template)}", which resources.templates does not hold ` +
                `(it holds ${
                    Object.keys(templates)
                        .map(k => JSON.stringify(k))
                        .join(', ') || 'none'
                }).`
        );
    const tpl = parseTemplate(raw, path);
    const base = tpl.object as Json;
    const out: Json = { ...base, ...o };
    delete out.template;
    // Properties merge by name: the object's own win.
    if (Array.isArray(base.properties) && Array.isArray(o.properties)) {
        const own = new Set((o.properties as Json[]).map(p => p.name));
        out.properties = [...(base.properties as Json[]).filter(p => !own.has(p.name)), ...(o.properties as Json[])];
    }
    if (o.gid === undefined && typeof base.gid === 'number') {
        const ts = tpl.tileset as Json | undefined;
        if (!ts || typeof ts.source !== 'string' || typeof ts.firstgid !== 'number')
            throw new Error(`${path}: the template's tile object names no tileset.`);
        const source = resolvePath(folderOf(path), ts.source);
        const entry = tilesets.find(e => typeof e.source === 'string' && resolvePath('', e.source) === source);
        if (!entry || typeof entry.firstgid !== 'number')
            throw new Error(`${where}: its template's tileset "${source}" is not one of the map's tilesets.`);
        const gid = base.gid >>> 0;
        out.gid = ((gid & ~GID_MASK) | (entry.firstgid + (gid & GID_MASK) - ts.firstgid)) >>> 0;
    }
    return out;
}
