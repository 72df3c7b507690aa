"""Golden: code the stdlib sweep (make sweep) found emitting C that did not
compile under -Wall -Wextra -Werror: a local with a non-ASCII name that is
only written, len() of a tuple display, a loop over an empty list (in a
nested function, compiled as a function of its own)."""
import dynac


@dynac.compile
def unicode_name(n: int) -> int:
    áóí = 20
    return n


@dynac.compile
def tuple_len(n: int) -> int:
    return len((0, 1, n)) + n


@dynac.compile
def empty_loop(n: int):
    def inner():
        for i in []:
            pass
        return 1
    return inner() + n
