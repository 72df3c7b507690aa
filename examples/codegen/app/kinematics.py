"""Projectile range and flight time (compiled by the build, see ../Makefile)."""
import math

import dynac

G = 9.81


@dynac.compile
def flight(v: float, angle: float) -> tuple[float, float]:
    """Horizontal range (m) and time of flight (s) for speed v (m/s) at angle (rad)."""
    t = 2.0 * v * math.sin(angle) / G
    return v * math.cos(angle) * t, t
