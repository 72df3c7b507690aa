"""Particles in a box with a class (__slots__): gravity, drag, wall
bounces and pairwise soft repulsion; energy and momentum reported every
few steps. Plain Python, no annotations (record, build --all --profile,
then dynac run)."""
import math

HOT = ["Particle.kinetic", "Particle.push", "Particle.move", "repel", "step", "energy"]
BENCH_SIZES = [150, 200]  # make bench runs main(*BENCH_SIZES)


class Particle:
    __slots__ = ("x", "y", "vx", "vy", "m")

    def __init__(self, x, y, vx, vy, m):
        self.x = x
        self.y = y
        self.vx = vx
        self.vy = vy
        self.m = m

    def kinetic(self):
        return 0.5 * self.m * (self.vx * self.vx + self.vy * self.vy)

    def push(self, fx, fy, dt):
        self.vx += fx / self.m * dt
        self.vy += fy / self.m * dt

    def move(self, dt, size):
        self.x += self.vx * dt
        self.y += self.vy * dt
        if self.x < 0.0:
            self.x = -self.x
            self.vx = -self.vx
        elif self.x > size:
            self.x = 2.0 * size - self.x
            self.vx = -self.vx
        if self.y < 0.0:
            self.y = -self.y
            self.vy = -self.vy * 0.9


def repel(a, b, dt):
    dx = a.x - b.x
    dy = a.y - b.y
    d2 = dx * dx + dy * dy + 0.01
    if d2 > 4.0:
        return 0
    f = 1.0 / (d2 * math.sqrt(d2))
    a.push(f * dx, f * dy, dt)
    b.push(-f * dx, -f * dy, dt)
    return 1


def step(ps, dt, size):
    near = 0
    n = len(ps)
    for i in range(n):
        for j in range(i + 1, n):
            near += repel(ps[i], ps[j], dt)
    for p in ps:
        p.push(-0.05 * p.vx, -9.81 * p.m, dt)
        p.move(dt, size)
    return near


def energy(ps):
    e = 0.0
    px = 0.0
    for p in ps:
        e += p.kinetic() + p.m * 9.81 * p.y
        px += p.m * p.vx
    return e, px


def make(n, seed):
    ps = []
    s = seed
    for k in range(n):
        s = (s * 1103515245 + 12345) % 2147483648
        x = 10.0 * s / 2147483648
        s = (s * 1103515245 + 12345) % 2147483648
        y = 5.0 + 5.0 * s / 2147483648
        ps.append(Particle(x, y, 0.5 - (k % 3) * 0.5, 0.0, 1.0 + (k % 4) * 0.25))
    return ps


def main(n=40, steps=60):
    ps = make(n, 7)
    near = 0
    for t in range(steps):
        near += step(ps, 0.01, 10.0)
        if t % 20 == 0:
            e, px = energy(ps)
            print("step %d energy %.9f momentum %.9f" % (t, e, px))
    e, px = energy(ps)
    print("final energy %.12f momentum %.12f near %d" % (e, px, near))


if __name__ == "__main__":
    import sys
    main(*[int(a) for a in sys.argv[1:]])  # sizes: make bench passes larger ones
