"""A small ray tracer with a vector class: spheres, a light, diffuse and
specular shading, one reflection. Plain Python, no annotations: run it with
`python3 -m dynac record`, `build --all --profile`, then `dynac run`.

HOT names the functions and methods the run spends its time in."""
import math

HOT = ["Vec.__add__", "Vec.__sub__", "Vec.__mul__", "Vec.dot", "Vec.norm", "Vec.unit",
       "Sphere.hit", "trace", "render"]
BENCH_SIZES = [400, 200]  # make bench runs main(*BENCH_SIZES)


class Vec:
    def __init__(self, x, y, z):
        self.x = x
        self.y = y
        self.z = z

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y, self.z + o.z)

    def __sub__(self, o):
        return Vec(self.x - o.x, self.y - o.y, self.z - o.z)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k, self.z * k)

    def dot(self, o):
        return self.x * o.x + self.y * o.y + self.z * o.z

    def norm(self):
        return math.sqrt(self.dot(self))

    def unit(self):
        return self * (1.0 / self.norm())


class Sphere:
    def __init__(self, centre, radius, colour, shine):
        self.centre = centre
        self.radius = radius
        self.colour = colour
        self.shine = shine

    def hit(self, origin, direction):
        """Distance along the ray to the nearest intersection, or -1.0."""
        oc = origin - self.centre
        b = oc.dot(direction)
        c = oc.dot(oc) - self.radius * self.radius
        disc = b * b - c
        if disc < 0.0:
            return -1.0
        root = math.sqrt(disc)
        t = -b - root
        if t > 1e-6:
            return t
        t = -b + root
        if t > 1e-6:
            return t
        return -1.0


def trace(scene, light, origin, direction, depth):
    best = 1e30
    nearest = None
    for s in scene:
        t = s.hit(origin, direction)
        if t > 0.0 and t < best:
            best = t
            nearest = s
    if nearest is None:
        return 0.1
    point = origin + direction * best
    normal = (point - nearest.centre).unit()
    to_light = (light - point).unit()
    diffuse = max(0.0, normal.dot(to_light))
    shade = nearest.colour * (0.15 + 0.85 * diffuse)
    half = (to_light - direction).unit()
    shade += math.pow(max(0.0, normal.dot(half)), 40.0) * nearest.shine
    if depth > 0 and nearest.shine > 0.0:
        bounce = direction - normal * (2.0 * direction.dot(normal))
        shade += 0.3 * trace(scene, light, point, bounce.unit(), depth - 1)
    return shade


def render(width, height):
    scene = [Sphere(Vec(0.0, -0.5, 4.0), 1.0, 0.9, 0.6),
             Sphere(Vec(1.6, 0.2, 5.0), 0.8, 0.7, 0.3),
             Sphere(Vec(-1.7, 0.1, 4.5), 0.7, 0.5, 0.0),
             Sphere(Vec(0.0, -101.5, 5.0), 100.0, 0.6, 0.1)]
    light = Vec(-3.0, 4.0, -1.0)
    eye = Vec(0.0, 0.0, 0.0)
    rows = []
    for j in range(height):
        row = []
        for i in range(width):
            x = (2.0 * (i + 0.5) / width - 1.0) * width / height
            y = 1.0 - 2.0 * (j + 0.5) / height
            row.append(trace(scene, light, eye, Vec(x, y, 1.5).unit(), 2))
        rows.append(row)
    return rows


def main(width=64, height=32):
    rows = render(width, height)
    ramp = " .:-=+*#%@"
    for row in rows[::4]:
        print("".join(ramp[min(9, int(v * 9.0))] for v in row[::2]))
    print("checksum %.12f" % sum(sum(r) for r in rows))


if __name__ == "__main__":
    import sys
    main(*[int(a) for a in sys.argv[1:]])  # sizes: make bench passes larger ones
