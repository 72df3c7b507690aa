"""N-body simulation of the Jovian planets, in the idiomatic list style:
each body is ([x, y, z], [vx, vy, vz], mass) and the kernels unpack them
with nested targets. Units: AU, days / DAYS_PER_YEAR, solar masses.

    python3 -m dynac build examples/nbody_lists.py && python3 examples/nbody_lists.py
"""
import dynac

PI = 3.14159265358979323
SOLAR_MASS = 4 * PI * PI
DAYS_PER_YEAR = 365.24


def make_bodies():
    """Sun, Jupiter, Saturn, Uranus, Neptune: ([x, y, z], [vx, vy, vz], m)."""
    d, m = DAYS_PER_YEAR, SOLAR_MASS
    return [
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], m),
        ([4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
         [1.66007664274403694e-03 * d, 7.69901118419740425e-03 * d, -6.90460016972063023e-05 * d],
         9.54791938424326609e-04 * m),
        ([8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
         [-2.76742510726862411e-03 * d, 4.99852801234917238e-03 * d, 2.30417297573763929e-05 * d],
         2.85885980666130812e-04 * m),
        ([1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
         [2.96460137564761618e-03 * d, 2.37847173959480950e-03 * d, -2.96589568540237556e-05 * d],
         4.36624404335156298e-05 * m),
        ([1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
         [2.68067772490389322e-03 * d, 1.62824170038242295e-03 * d, -9.51592254519715870e-05 * d],
         5.15138902046611451e-05 * m)]


@dynac.compile
def advance(dt: float, n: int,
            bodies: list[tuple[list[float], list[float], float]],
            pairs: list[tuple[tuple[list[float], list[float], float],
                              tuple[list[float], list[float], float]]]):
    for i in range(n):
        for (([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2)) in pairs:
            dx = x1 - x2
            dy = y1 - y2
            dz = z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
            b1m = m1 * mag
            b2m = m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for (r, [vx, vy, vz], m) in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz


@dynac.compile
def energy(bodies: list[tuple[list[float], list[float], float]],
           pairs: list[tuple[tuple[list[float], list[float], float],
                             tuple[list[float], list[float], float]]]) -> float:
    e = 0.0
    for (([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2)) in pairs:
        dx = x1 - x2
        dy = y1 - y2
        dz = z1 - z2
        e -= (m1 * m2) / ((dx * dx + dy * dy + dz * dz) ** 0.5)
    for (r, [vx, vy, vz], m) in bodies:
        e += m * (vx * vx + vy * vy + vz * vz) / 2.
    return e


@dynac.compile
def offset_momentum(bodies: list[tuple[list[float], list[float], float]], solar_mass: float):
    px = 0.0
    py = 0.0
    pz = 0.0
    for (r, [vx, vy, vz], m) in bodies:
        px -= vx * m
        py -= vy * m
        pz -= vz * m
    (r, v, m) = bodies[0]
    v[0] = px / solar_mass
    v[1] = py / solar_mass
    v[2] = pz / solar_mass


def run(steps=1000):
    """Energy before and after `steps` steps of 0.01 (the benchmark's output)."""
    bodies = make_bodies()
    pairs = [(bodies[i], bodies[j]) for i in range(len(bodies)) for j in range(i + 1, len(bodies))]
    offset_momentum(bodies, SOLAR_MASS)
    e0 = energy(bodies, pairs)
    advance(0.01, steps, bodies, pairs)
    return e0, energy(bodies, pairs)


TEST_ARGS, BENCH_ARGS = (200,), (50000,)

if __name__ == "__main__":
    print("%.9f\n%.9f" % run())
