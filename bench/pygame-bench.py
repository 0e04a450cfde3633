# Times pygame.mask on the scenes that bench/mask.bench.ts writes: in-process timeit, best-of-N samples
# reported as median/min/max ns per call. Input: JSON manifest on stdin; output: JSON on stdout.
import json, os, sys, timeit
os.environ.setdefault('PYGAME_HIDE_SUPPORT_PROMPT', '1')
os.environ.setdefault('SDL_VIDEODRIVER', 'dummy')
import pygame


def load(path, size):
    with open(path, 'rb') as f:
        surf = pygame.image.frombuffer(f.read(), (size, size), 'RGBA')
    return pygame.mask.from_surface(surf, 127)


def bench(stmt, ns, samples=9):
    t = timeit.Timer(stmt, globals=ns)
    n, _ = t.autorange()
    n = max(1, n // 4)
    runs = sorted(x * 1e9 / n for x in t.repeat(samples, n))
    return {'median': runs[len(runs) // 2], 'min': runs[0], 'max': runs[-1]}


out = {'pygame': pygame.version.ver, 'python': sys.version.split()[0], 'results': []}
for sc in json.load(sys.stdin):
    a, b = load(sc['a'], sc['size']), load(sc['b'], sc['size'])
    off = (sc['dx'], sc['dy'])
    ns = {'a': a, 'b': b, 'off': off, 'far': (10 ** 6, 0)}
    r = {'size': sc['size'], 'kind': sc['kind'], 'check': a.overlap_area(b, off)}
    r['overlap'] = bench('a.overlap(b, off)', ns)
    if sc['kind'] == 'late':
        r['overlap_area'] = bench('a.overlap_area(b, off)', ns)
        r['overlap_mask'] = bench('a.overlap_mask(b, off)', ns)
        r['call_overhead'] = bench('a.overlap(b, far)', ns)
    out['results'].append(r)
json.dump(out, sys.stdout)
