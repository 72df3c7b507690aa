"""The same N-body simulation over flat array('d') buffers: positions and
velocities as 3 * n doubles (x, y, z per body), masses as n doubles.

    python3 -m dynac build examples/nbody_array.py && python3 examples/nbody_array.py
"""
import math
from array import array

import dynac

from nbody_lists import SOLAR_MASS, make_bodies


@dynac.compile(signatures=["(float, int, array[d], array[d], array[d])"])
def advance(dt, steps, pos, vel, mass):
    n = len(mass)
    for s in range(steps):
        for i in range(n):
            for j in range(i + 1, n):
                dx = pos[3 * i] - pos[3 * j]
                dy = pos[3 * i + 1] - pos[3 * j + 1]
                dz = pos[3 * i + 2] - pos[3 * j + 2]
                d2 = dx * dx + dy * dy + dz * dz
                mag = dt / (d2 * math.sqrt(d2))
                mi = mass[i] * mag
                mj = mass[j] * mag
                vel[3 * i] -= dx * mj
                vel[3 * i + 1] -= dy * mj
                vel[3 * i + 2] -= dz * mj
                vel[3 * j] += dx * mi
                vel[3 * j + 1] += dy * mi
                vel[3 * j + 2] += dz * mi
        for i in range(3 * n):
            pos[i] += dt * vel[i]


@dynac.compile(signatures=["(array[d], array[d], array[d])"])
def energy(pos, vel, mass):
    n = len(mass)
    e = 0.0
    for i in range(n):
        vx = vel[3 * i]
        vy = vel[3 * i + 1]
        vz = vel[3 * i + 2]
        e += 0.5 * mass[i] * (vx * vx + vy * vy + vz * vz)
        for j in range(i + 1, n):
            dx = pos[3 * i] - pos[3 * j]
            dy = pos[3 * i + 1] - pos[3 * j + 1]
            dz = pos[3 * i + 2] - pos[3 * j + 2]
            e -= mass[i] * mass[j] / math.sqrt(dx * dx + dy * dy + dz * dz)
    return e


def setup():
    bodies = make_bodies()
    pos = array("d", [c for r, v, m in bodies for c in r])
    vel = array("d", [c for r, v, m in bodies for c in v])
    mass = array("d", [m for r, v, m in bodies])
    for k in range(3):  # offset the sun's momentum
        vel[k] = -sum(vel[3 * i + k] * mass[i] for i in range(len(mass))) / SOLAR_MASS
    return pos, vel, mass


def run(steps=1000):
    pos, vel, mass = setup()
    e0 = energy(pos, vel, mass)
    advance(0.01, steps, pos, vel, mass)
    return e0, energy(pos, vel, mass)


TEST_ARGS, BENCH_ARGS = (200,), (50000,)

if __name__ == "__main__":
    print("%.9f\n%.9f" % run())
