"""Test cases built while pytest imports the test module: without this function's body, it does not import."""


def square_cases():
    """Pairs of a number and its square, for a table the tests build at import."""
    return [(number, number * number) for number in (1, 2, 3)]
