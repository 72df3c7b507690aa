"""Compound interest, step by step (compiled by the build, see ../Makefile)."""
import dynac


@dynac.compile
def compound(principal: float, rate: float, years: int) -> float:
    for _ in range(years):
        principal += principal * rate
    return principal
