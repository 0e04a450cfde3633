# Reads cases (JSON on stdin), answers them with pygame.mask, writes JSON to stdout. Used by test/pygame.test.ts
# and bench/mask.bench.ts. Masks travel as rows of '#' and '.'.
import json, os, sys
os.environ.setdefault('PYGAME_HIDE_SUPPORT_PROMPT', '1')
os.environ.setdefault('SDL_VIDEODRIVER', 'dummy')
import pygame


def mask_of(rows):
    h = len(rows)
    w = len(rows[0]) if h else 0
    m = pygame.Mask((w, h))
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c == '#':
                m.set_at((x, y))
    return m


def text_of(m):
    w, h = m.get_size()
    return ['' .join('#' if m.get_at((x, y)) else '.' for x in range(w)) for y in range(h)]


out = []
for case in json.load(sys.stdin):
    a, b = mask_of(case['a']), mask_of(case['b'])
    dx, dy = case['dx'], case['dy']
    p = a.overlap(b, (dx, dy))
    cw, ch = case['scale']
    out.append({
        'overlap': list(p) if p else None,
        'area': a.overlap_area(b, (dx, dy)),
        'overlapMask': text_of(a.overlap_mask(b, (dx, dy))),
        'count': a.count(),
        'rects': sorted([list(r) for r in a.get_bounding_rects()]),
        'components': sorted(c.count() for c in a.connected_components()),
        'largest': a.connected_component().count(),
        'outline': [list(q) for q in a.outline()],
        'outline3': [list(q) for q in a.outline(3)],
        'centroid': list(a.centroid()),
        'scale': text_of(a.scale((cw, ch))),
        'convolve': a.convolve(b).count(),
    })
json.dump(out, sys.stdout)
