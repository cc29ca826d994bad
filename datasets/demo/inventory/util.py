"""Small helpers shared by the rest of the package.

Nothing in here knows about items, orders or warehouses. Keeping it that way
lets every other module import it without creating an import cycle.
"""

import functools
import itertools
import re
import unicodedata
from decimal import ROUND_HALF_UP, Decimal


def round_money(value, places=2):
    """Round a monetary amount half-up to a fixed number of decimal places.

    Python's built-in ``round`` rounds half to even, which surprises
    customers reading an invoice. Amounts therefore go through
    :class:`decimal.Decimal` and are rounded half away from zero.

    Parameters
    ----------
    value : int, float, str or Decimal
        The amount. Floats are converted through ``str`` so that ``2.675``
        is treated as the decimal the user typed, not its binary value.
    places : int, optional
        Number of decimal places to keep, by default 2.

    Returns
    -------
    Decimal
        The rounded amount.

    Examples
    --------
    >>> round_money(2.675)
    Decimal('2.68')
    """
    return Decimal(str(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def slugify(text, sep="-"):
    r"""Turn a free-text product name into a URL- and filename-safe slug.

    Runs of characters that are not word characters (``\w``) or that are
    underscores collapse into a single separator, and the result is
    lower-cased. Accents are removed by decomposing to NFKD and dropping the
    combining marks, so ``"Crème brûlée"`` becomes ``"creme-brulee"``.

    Parameters
    ----------
    text : str
        The text to convert.
    sep : str, optional
        Separator placed between words, by default ``"-"``.

    Returns
    -------
    str
        The slug; empty when ``text`` holds no word characters.

    Examples
    --------
    >>> slugify("  Steel Bolt M8 x 40 ")
    'steel-bolt-m8-x-40'
    """
    decomposed = unicodedata.normalize("NFKD", text)
    without_marks = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    words = re.split(r"[\W_]+", without_marks.lower())
    return sep.join(word for word in words if word)


def normalize_sku(raw):
    """Upper-case a SKU and strip the whitespace scanners like to append."""
    return raw.strip().upper()


def clamp(value, low, high):
    if low > high:
        raise ValueError(f"empty range: {low} > {high}")
    return max(low, min(value, high))


def build_unit_table(families):
    """Flatten unit families into one table of conversion factors.

    Each family lists its units with their size relative to the family's
    base unit. Keeping the family next to the factor lets callers refuse to
    compare quantities across families (kilograms with litres).

    Parameters
    ----------
    families : dict
        ``{family: {unit: factor}}``. Every family needs exactly one unit
        with factor 1, its base unit.

    Returns
    -------
    dict
        ``{unit: (family, factor)}`` with ``factor`` as a ``Decimal``.

    Raises
    ------
    ValueError
        If a family has no single base unit or a unit is in two families.
    """
    for family, units in families.items():
        bases = [unit for unit, factor in units.items() if Decimal(str(factor)) == 1]
        if len(bases) != 1:
            raise ValueError(f"unit family {family!r} needs exactly one base unit, got {bases}")
    pairs = [
        (unit, family, Decimal(str(factor)))
        for family, units in families.items()
        for unit, factor in units.items()
    ]
    table = {unit: (family, factor) for unit, family, factor in pairs}
    if len(table) != len(pairs):
        names = [unit for unit, _, _ in pairs]
        duplicated = sorted({unit for unit in names if names.count(unit) > 1})
        raise ValueError(f"units listed in more than one family: {', '.join(duplicated)}")
    return table


# Built once at import time: every quantity the package parses is normalised
# against this table, and a bad table should fail loudly on import rather
# than on the first order.
UNIT_FACTORS = build_unit_table(
    {
        "mass": {"g": 1, "kg": 1000, "t": 1000000},
        "volume": {"ml": 1, "l": 1000},
        "count": {"pc": 1, "pair": 2, "dozen": 12},
    }
)


def _split_number_unit(text):
    """Split a quantity such as ``"2.5 kg"`` into its number and its unit.

    Spreadsheets exported with a German locale write decimal commas, so
    ``"2,5kg"`` is accepted as well. The unit is returned lower-cased and
    may be empty when the text is a bare number.

    Parameters
    ----------
    text : str
        The quantity as typed.

    Returns
    -------
    tuple of (Decimal, str)
        The number and the unit.

    Raises
    ------
    ValueError
        If ``text`` does not start with a number or has trailing junk.
    """
    match = re.match(r"^\s*([+-]?\d+(?:[.,]\d+)?)\s*([A-Za-z]*)\s*$", text)
    if match is None:
        raise ValueError(f"not a quantity: {text!r}")
    number, unit = match.groups()
    return Decimal(number.replace(",", ".")), unit.lower()


def parse_quantity(text, default_unit="pc"):
    """Parse a quantity with an optional unit into the family's base unit.

    Parameters
    ----------
    text : str
        A number followed by an optional unit, e.g. ``"1.5 kg"`` or ``"3"``.
    default_unit : str, optional
        Unit assumed when ``text`` has none, by default ``"pc"`` (pieces).

    Returns
    -------
    tuple of (Decimal, str)
        The amount expressed in the base unit, and the unit family.

    Raises
    ------
    ValueError
        If the text is malformed, the unit is unknown or the amount is
        negative.

    Examples
    --------
    >>> parse_quantity("1.5 kg")
    (Decimal('1500.0'), 'mass')
    """
    number, unit = _split_number_unit(text)
    unit = unit or default_unit
    try:
        family, factor = UNIT_FACTORS[unit]
    except KeyError:
        known = ", ".join(sorted(UNIT_FACTORS))
        raise ValueError(f"unknown unit {unit!r}; expected one of: {known}") from None
    if number < 0:
        raise ValueError(f"quantity must not be negative: {text!r}")
    return number * factor, family


def chunked(iterable, size):
    """Yield successive lists of at most ``size`` items from ``iterable``.

    Works on any iterable, including generators and other one-shot
    iterators, and never holds more than one chunk in memory.

    Parameters
    ----------
    iterable : iterable
        The items to split.
    size : int
        Maximum length of each chunk; the last chunk may be shorter.

    Yields
    ------
    list
        The next chunk.

    Raises
    ------
    ValueError
        If ``size`` is smaller than 1 (raised on first iteration).
    """
    if size < 1:
        raise ValueError(f"chunk size must be at least 1, got {size}")
    iterator = iter(iterable)
    while True:
        chunk = list(itertools.islice(iterator, size))
        if not chunk:
            return
        yield chunk


def unique_name(base, taken, limit=1000):
    """Return ``base``, or ``base-2``, ``base-3``... whichever is still free.

    Used to name new warehouse bins and export files without overwriting an
    existing one. The search is bounded so that a caller passing a set that
    grows while we search cannot loop forever.

    Parameters
    ----------
    base : str
        The preferred name.
    taken : container of str
        Names already in use.
    limit : int, optional
        Highest suffix to try, by default 1000.

    Returns
    -------
    str
        A name not in ``taken``.

    Raises
    ------
    ValueError
        If every candidate up to ``limit`` is taken.
    """
    candidate = base
    suffix = 1
    while candidate in taken:
        suffix += 1
        if suffix > limit:
            break
        candidate = f"{base}-{suffix}"
    else:
        return candidate
    raise ValueError(f"no free name for {base!r} among {limit} candidates")


def checksum_digit(digits):
    """Compute the GS1 check digit (EAN-13, UPC-A, GTIN-14) for a payload.

    Digits are weighted 3, 1, 3, ... from the rightmost payload digit, and
    the check digit brings the weighted sum up to a multiple of ten.

    Parameters
    ----------
    digits : str
        The barcode without its check digit.

    Returns
    -------
    int
        The check digit, 0 to 9.

    Raises
    ------
    ValueError
        If ``digits`` is empty or contains anything but ASCII digits.

    Examples
    --------
    >>> checksum_digit("400638133393")
    1
    """
    if not digits or not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"expected a string of digits, got {digits!r}")
    total = 0
    for position, char in enumerate(reversed(digits)):
        weight = 3 if position % 2 == 0 else 1
        total += int(char) * weight
    return (10 - total % 10) % 10


def is_valid_gtin(code):
    """Tell whether ``code`` is a GTIN-8/12/13/14 with a correct check digit."""
    return (
        len(code) in (8, 12, 13, 14)
        and code.isascii()
        and code.isdigit()
        and checksum_digit(code[:-1]) == int(code[-1])
    )


def retry(times=3, exceptions=(Exception,), on_retry=None):
    """Decorator factory: call the wrapped function up to ``times`` times.

    Meant for flaky in-process sources (a supplier feed, a scanner). There
    is deliberately no sleep between attempts: callers that talk to a
    network service wrap their own backoff around this.

    Parameters
    ----------
    times : int, optional
        Total number of attempts, by default 3.
    exceptions : tuple of type, optional
        Exceptions that trigger another attempt; anything else propagates
        at once.
    on_retry : callable, optional
        Called as ``on_retry(attempt, exc)`` before each new attempt.

    Returns
    -------
    callable
        A decorator that keeps the wrapped function's name and docstring.
    """
    if times < 1:
        raise ValueError(f"times must be at least 1, got {times}")

    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for attempt in range(1, times + 1):
                try:
                    return func(*args, **kwargs)
                except exceptions as exc:
                    if attempt == times:
                        raise
                    if on_retry is not None:
                        on_retry(attempt, exc)

        return wrapper

    return decorator


def ensure_non_negative(quantity, what="quantity"):
    """Reject a quantity below zero before it reaches a stock ledger.

    Stock movements are stored as signed deltas elsewhere, so a negative
    quantity typed into a form would silently turn a receipt into a pick.
    Callers check user input with this function before building a movement.
    Zero is allowed: an empty line on a delivery note is not an error.

    Parameters
    ----------
    quantity : int
        The quantity to check.
    what : str, optional
        What the quantity counts, named in the error message.

    Raises
    ------
    TypeError
        When ``quantity`` is not an integer (booleans are refused too).
    ValueError
        When ``quantity`` is below zero.
    """
    if isinstance(quantity, bool) or not isinstance(quantity, int):
        raise TypeError(f"{what} must be an integer, got {quantity!r}")
    if quantity < 0:
        raise ValueError(f"{what} must not be negative, got {quantity}")
