"""try/except/else/finally and with compiled: the body's failures go to the handlers (DYNAC_LEAVE
redefined around it), a clause's class is matched as CHECK_EXC_MATCH does,
`as name` is unbound when the clause ends, an unmatched exception goes on, a finally block is written once per way out."""
import dynac


@dynac.compile
def lookup(d: object, k: object, default: object):
    try:
        v = d[k]
    except KeyError:
        return default
    except (TypeError, IndexError) as e:
        raise ValueError(k) from e
    else:
        v = v + 1
    return v


@dynac.compile
def first_positive(xs: list[float]):
    for x in xs:
        try:
            if x > 0.0:
                return x
        except ValueError:
            pass
    return -1.0


@dynac.compile
def closes(log: object, x: float):
    try:
        if x > 1.0:
            return x
        log.append(x)
    finally:
        log.append("closed")
    return 0.0


@dynac.compile
def locked(lock: object, xs: list[float]):
    with lock as held:
        t = 0.0
        for x in xs:
            t += x
        return t, held
