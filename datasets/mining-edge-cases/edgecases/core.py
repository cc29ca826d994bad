"""Functions reached in the ways a coverage map can miss."""
import functools
import os

REGISTRY = {}


def register(func):
    """Keep `func` in the registry under its name (runs at import time, for every decorated function)."""
    REGISTRY[func.__name__] = func
    return func


@register
def double(value):
    """Twice the value; reached only through REGISTRY, a reference taken at import time."""
    return value * 2


def make_adder(amount):
    """A function adding `amount`; called at import time below."""

    def add(value):
        """The closure: adds the captured amount."""
        return value + amount

    return add


add_two = make_adder(2)


@functools.lru_cache(maxsize=None)
def fib(number):
    """Fibonacci numbers, cached: a result cached by an earlier test must not hide the mutation."""
    if number < 2:
        return number
    return fib(number - 1) + fib(number - 2)


def countdown(start):
    """A generator: start, start - 1, ..., 1."""
    while start > 0:
        yield start
        start -= 1


def make_config():
    """The settings; called only by a module-scoped fixture in conftest.py."""
    return {"name": "edge", "size": 3}


def shout(text):
    """Upper case with an exclamation mark; called only in a child process by the tests."""
    return text.upper() + "!"


def unused(value):
    """No test runs this."""
    return value


def flaky_target():
    """Run only by a test that fails every other run."""
    return os.environ.get("EDGE_FLAKY_FILE", "")
