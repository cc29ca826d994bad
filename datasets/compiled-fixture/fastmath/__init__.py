"""Integer sums, the inner step in C (fastmath._speedups)."""
from ._speedups import add


def total(values):
    """Return the sum of the integers in ``values``.

    Each step is the compiled ``add``, so a change to the C source shows in
    this function's result.

    Parameters:
        values: an iterable of integers; may be empty.

    Returns:
        The sum, 0 for no values.

    Examples:
        >>> total([1, 2, 3])
        6
    """
    result = 0
    for value in values:
        result = add(result, value)
    return result
