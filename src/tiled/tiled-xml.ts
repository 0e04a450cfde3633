// TMX maps and TSX tilesets turned into the objects Tiled's JSON format holds, so one reader serves both.
import { DOMParser } from '@xmldom/xmldom';

// The few DOM members read here (xmldom's and a browser's Element both have them).
interface Node {
    nodeType: number;
    nodeName: string;
    textContent: string | null;
    childNodes: ArrayLike<Node>;
    getAttribute(name: string): string | null;
    hasAttribute(name: string): boolean;
}
type Json = Record<string, unknown>;

/** The root element of XML `text` named `root` ('map' or 'tileset'); malformed XML throws an Error naming `where`. */
export function parseXml(text: string, root: string, where: string): Node {
    let doc: { documentElement: Node | null };
    try {
        doc = new DOMParser({
            onError: (level: string, message: string) => {
                if (level !== 'warning') throw new Error(message);
            }
        }).parseFromString(text, 'text/xml') as never;
    } catch (e) {
        throw new Error(`${where}: the XML is malformed (${firstLine(e)}).`, { cause: e });
    }
    const el = doc.documentElement;
    if (!el || el.nodeName !== root)
        throw new Error(`${where}: the XML's root is <${el?.nodeName ?? 'nothing'}>, expected <${root}>.`);
    return el;
}

function firstLine(e: unknown): string {
    return String((e as Error)?.message ?? e).split('\n')[0];
}

function children(el: Node, name?: string): Node[] {
    const out: Node[] = [];
    for (let i = 0; i < el.childNodes.length; i++) {
        const c = el.childNodes[i];
        if (c.nodeType === 1 && (name === undefined || c.nodeName === name)) out.push(c);
    }
    return out;
}

function child(el: Node, name: string): Node | undefined {
    return children(el, name)[0];
}

// Attributes copied as numbers where Tiled writes numbers, as strings elsewhere.
const NUMERIC = new Set([
    'width',
    'height',
    'tilewidth',
    'tileheight',
    'firstgid',
    'spacing',
    'margin',
    'tilecount',
    'columns',
    'x',
    'y',
    'offsetx',
    'offsety',
    'id',
    'gid',
    'rotation',
    'imagewidth',
    'imageheight',
    'startx',
    'starty'
]);

function attrs(el: Node, names: readonly string[], out: Json = {}): Json {
    for (const n of names) {
        if (!el.hasAttribute(n)) continue;
        const v = el.getAttribute(n) as string;
        out[n] = NUMERIC.has(n) ? Number(v) : v;
    }
    return out;
}

/** `<properties>` as JSON's property list. */
function properties(el: Node): Json[] | undefined {
    const p = child(el, 'properties');
    if (!p) return undefined;
    return children(p, 'property').map(q => {
        const type = q.getAttribute('type') ?? 'string';
        const raw = q.hasAttribute('value') ? (q.getAttribute('value') as string) : (q.textContent ?? '');
        let value: unknown = raw;
        if (type === 'int' || type === 'float' || type === 'object') value = Number(raw);
        else if (type === 'bool') value = raw === 'true';
        else if (type === 'class') value = properties(q) ?? [];
        return { name: q.getAttribute('name') ?? '', type, value };
    });
}

function withProperties(el: Node, out: Json): Json {
    const p = properties(el);
    if (p) out.properties = p;
    // Tiled 1.9 renamed an object's and a tile's "type" to "class" in TMX; JSON keeps "type" for both.
    if (el.hasAttribute('class')) out.type = el.getAttribute('class');
    return out;
}

/** A `<tileset>` element (in a map, or a TSX file's root) as JSON's tileset object. */
export function tilesetFromXml(el: Node): Json {
    const ts = attrs(el, [
        'firstgid',
        'source',
        'name',
        'tilewidth',
        'tileheight',
        'spacing',
        'margin',
        'tilecount',
        'columns',
        'objectalignment',
        'tilerendersize',
        'fillmode'
    ]);
    withProperties(el, ts);
    const off = child(el, 'tileoffset');
    if (off) ts.tileoffset = attrs(off, ['x', 'y']);
    const img = child(el, 'image');
    if (img) imageInto(img, ts);
    const tiles = children(el, 'tile');
    if (tiles.length > 0)
        ts.tiles = tiles.map(t => {
            const tile = withProperties(t, attrs(t, ['id', 'x', 'y', 'width', 'height']));
            if (t.hasAttribute('type')) tile.type = t.getAttribute('type');
            const ti = child(t, 'image');
            if (ti) imageInto(ti, tile);
            const og = child(t, 'objectgroup');
            if (og) tile.objectgroup = objectGroup(og);
            return tile;
        });
    return ts;
}

function imageInto(img: Node, out: Json): void {
    out.image = img.getAttribute('source') ?? '';
    if (img.hasAttribute('width')) out.imagewidth = Number(img.getAttribute('width'));
    if (img.hasAttribute('height')) out.imageheight = Number(img.getAttribute('height'));
    if (img.hasAttribute('trans')) out.transparentcolor = img.getAttribute('trans');
}

function points(text: string): Json[] {
    return text
        .trim()
        .split(/\s+/)
        .filter(p => p !== '')
        .map(p => {
            const [x, y] = p.split(',');
            return { x: Number(x), y: Number(y) };
        });
}

function objectFromXml(o: Node): Json {
    const obj = withProperties(o, attrs(o, ['id', 'name', 'x', 'y', 'width', 'height', 'rotation', 'template']));
    if (o.hasAttribute('type')) obj.type = o.getAttribute('type');
    // A gid is 32 bits unsigned: Number() keeps the flip bits that parseInt would too.
    if (o.hasAttribute('gid')) obj.gid = Number(o.getAttribute('gid'));
    if (child(o, 'ellipse')) obj.ellipse = true;
    if (child(o, 'point')) obj.point = true;
    if (child(o, 'text')) obj.text = { text: child(o, 'text')?.textContent ?? '' };
    const pg = child(o, 'polygon'),
        pl = child(o, 'polyline');
    if (pg) obj.polygon = points(pg.getAttribute('points') ?? '');
    if (pl) obj.polyline = points(pl.getAttribute('points') ?? '');
    return obj;
}

/** A TX object template (`<template>`) as the object Tiled's JSON template (`.tj`) holds. */
export function templateFromXml(el: Node): Json {
    const out: Json = { type: 'template' };
    const ts = child(el, 'tileset');
    if (ts) out.tileset = attrs(ts, ['firstgid', 'source']);
    const o = child(el, 'object');
    if (o) out.object = objectFromXml(o);
    return out;
}

function objectGroup(el: Node): Json {
    const g = withProperties(el, attrs(el, ['id', 'name', 'offsetx', 'offsety', 'visible']));
    g.type = 'objectgroup';
    if (el.hasAttribute('class')) g.class = el.getAttribute('class');
    g.objects = children(el, 'object').map(objectFromXml);
    return g;
}

// A <data> element: CSV or base64 text as is (with its encoding), <tile> elements as a gid array, chunks apart.
function dataInto(data: Node, out: Json): void {
    const encoding = data.getAttribute('encoding');
    const compression = data.getAttribute('compression');
    if (encoding) out.encoding = encoding;
    if (compression) out.compression = compression;
    const read = (el: Node): unknown =>
        encoding ? (el.textContent ?? '') : children(el, 'tile').map(t => Number(t.getAttribute('gid') ?? 0));
    const chunks = children(data, 'chunk');
    if (chunks.length > 0)
        out.chunks = chunks.map(c => ({ ...attrs(c, ['x', 'y', 'width', 'height']), data: read(c) }));
    else out.data = read(data);
}

function layers(el: Node): Json[] {
    const out: Json[] = [];
    for (const c of children(el)) {
        if (c.nodeName === 'layer') {
            const l = withProperties(c, attrs(c, ['id', 'name', 'width', 'height', 'offsetx', 'offsety', 'visible']));
            if (c.hasAttribute('class')) l.class = c.getAttribute('class');
            l.type = 'tilelayer';
            const d = child(c, 'data');
            if (d) dataInto(d, l);
            else l.data = [];
            out.push(l);
        } else if (c.nodeName === 'objectgroup') out.push(objectGroup(c));
        else if (c.nodeName === 'group') {
            const g = withProperties(c, attrs(c, ['id', 'name', 'offsetx', 'offsety', 'visible']));
            if (c.hasAttribute('class')) g.class = c.getAttribute('class');
            g.type = 'group';
            g.layers = layers(c);
            out.push(g);
        } else if (c.nodeName === 'imagelayer') out.push({ ...attrs(c, ['id', 'name']), type: 'imagelayer' });
    }
    return out;
}

/** A TMX `<map>` element as the object Tiled's JSON format holds. */
export function mapFromXml(el: Node): Json {
    const map = attrs(el, [
        'orientation',
        'renderorder',
        'width',
        'height',
        'tilewidth',
        'tileheight',
        'infinite',
        'staggeraxis',
        'hexsidelength'
    ]);
    map.infinite = el.getAttribute('infinite') === '1';
    withProperties(el, map);
    map.tilesets = children(el, 'tileset').map(tilesetFromXml);
    map.layers = layers(el);
    return map;
}
