from ..helpers import *  # noqa: F403


def uses_star(value):
    """Calls a function that a relative star import brings."""
    return starred(value)  # noqa: F405
