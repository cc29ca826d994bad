"""Prices: volume discounts, coupons, sales tax and basket quotes.

All arithmetic is done in :class:`decimal.Decimal`; amounts are rounded to
cents once per invoice line and once per total, never in between, so that
a quote adds up the same way the printed invoice does.
"""

import re
from decimal import Decimal

from .errors import PricingError
from .models import Item
from .util import round_money


class DiscountRule:
    """``percent`` off the line once at least ``min_qty`` units are bought."""

    def __init__(self, min_qty, percent):
        percent = Decimal(str(percent))
        if min_qty < 1 or not 0 <= percent < 100:
            raise PricingError(f"invalid discount rule: {percent}% from {min_qty} units")
        self.min_qty = min_qty
        self.percent = percent

    def __repr__(self):
        return f"DiscountRule(min_qty={self.min_qty}, percent={self.percent})"


class PricedItem(Item):
    """A catalogue item that carries its own volume discount rules."""

    fields = Item.fields + ("rules",)

    def __init__(self, sku, name, unit_price, weight_kg=0, tags=(), rules=()):
        """Create the item; rules may be given as ``(min_qty, percent)`` pairs."""
        super().__init__(sku, name, unit_price, weight_kg, tags)
        rules = [rule if isinstance(rule, DiscountRule) else DiscountRule(*rule) for rule in rules]
        self.rules = sorted(rules, key=lambda rule: rule.min_qty)

    def to_dict(self):
        """Return the fields as a dictionary, with rules as plain pairs.

        The base class would put the :class:`DiscountRule` objects in the
        dictionary; exports and equality checks want plain data instead, so
        each rule becomes a ``(min_qty, percent)`` tuple, which the
        constructor accepts back.

        Returns
        -------
        dict
            The item's fields; ``"rules"`` holds a list of tuples ordered
            by ``min_qty``.

        Examples
        --------
        >>> PricedItem("A", "Thing", "2", rules=[(10, 5)]).to_dict()["rules"]
        [(10, Decimal('5'))]
        """
        data = super().to_dict()
        data["rules"] = [(rule.min_qty, rule.percent) for rule in self.rules]
        return data

    def price_for(self, qty):
        """Price ``qty`` units of this item, applying its best volume discount.

        The item is validated first because priced items are often built
        from hand-edited price lists, and a negative price must never reach
        an invoice.

        Parameters
        ----------
        qty : int
            Number of units, at least 1.

        Returns
        -------
        Decimal
            The line total, rounded to cents.

        Raises
        ------
        PricingError
            If ``qty`` is not positive.
        ValidationError
            If the item itself is invalid.
        """
        self.validate()
        if qty <= 0:
            raise PricingError(f"{self.sku}: quantity must be positive, got {qty}")
        percent = best_discount(self.rules, qty)
        return round_money(percent_off(self.unit_price * qty, percent))


def percent_off(amount, percent):
    """Return ``amount`` reduced by ``percent`` percent, without rounding.

    Rounding is left to the caller so that several reductions can be chained
    without accumulating rounding errors.

    Parameters
    ----------
    amount : Decimal, int, float or str
        The amount to reduce.
    percent : Decimal, int, float or str
        The reduction, where ``15`` means 15 %.

    Returns
    -------
    Decimal
        The reduced amount.

    Examples
    --------
    >>> percent_off(80, 15)
    Decimal('68')
    """
    return Decimal(str(amount)) * (100 - Decimal(str(percent))) / 100


def best_discount(rules, qty):
    """Return the largest discount percentage that applies to ``qty`` units.

    Rules are not assumed to be sorted or to grow with the threshold: a
    promotion may give a larger discount at a smaller quantity.

    Parameters
    ----------
    rules : iterable of DiscountRule
        Candidate rules.
    qty : int
        The quantity bought.

    Returns
    -------
    Decimal
        The best percentage, or ``Decimal(0)`` when no rule applies.

    Examples
    --------
    >>> best_discount([DiscountRule(10, 5), DiscountRule(50, 12)], 20)
    Decimal('5')
    """
    return max((rule.percent for rule in rules if qty >= rule.min_qty), default=Decimal(0))


def tax_rate_for(region):
    """Return the sales tax or VAT rate, in percent, for a region code.

    Regions are ISO 3166 country codes, optionally followed by a
    subdivision (``"US-CA"``). US sales tax is set per state, so a bare
    ``"US"`` is rejected rather than guessed.

    Parameters
    ----------
    region : str
        The region code; case and surrounding spaces are ignored.

    Returns
    -------
    Decimal
        The rate in percent, for example ``Decimal('19')`` for Germany.

    Raises
    ------
    ValueError
        If the region is empty, a bare ``"US"``, or unknown.
    """
    code = region.strip().upper()
    if not code:
        raise ValueError("a region code is required")
    country, _, subdivision = code.partition("-")
    if country == "US":
        if not subdivision:
            raise ValueError("US regions need a state, for example 'US-CA'")
        rate = {"CA": "7.25", "NY": "4", "TX": "6.25", "OR": "0"}.get(subdivision)
    elif country in ("DE", "AT"):
        rate = "19" if country == "DE" else "20"
    elif country == "GB" or country == "UK":
        rate = "20"
    elif country == "CH":
        rate = "8.1"
    else:
        rate = None
    if rate is None:
        raise ValueError(f"no tax rate known for region {region!r}")
    return Decimal(rate)


def compute_tax(amount, region):
    """Return the tax due on ``amount`` in ``region``, rounded to cents.

    Parameters
    ----------
    amount : Decimal, int, float or str
        The taxable amount, after discounts.
    region : str
        A region code accepted by :func:`tax_rate_for`.

    Returns
    -------
    Decimal
        The tax, rounded half-up to cents.

    Raises
    ------
    ValueError
        If the region is unknown.

    Examples
    --------
    >>> compute_tax("100.00", "DE")
    Decimal('19.00')
    """
    return round_money(Decimal(str(amount)) * tax_rate_for(region) / 100)


def parse_coupon(code):
    u"""Parse a coupon code into its kind, value and minimum basket value.

    Codes look like ``SAVE10`` (10 % off), ``FLAT5`` (5 off) or
    ``SAVE15-MIN100`` (15 % off baskets worth at least 100). They are
    printed on flyers, so case and surrounding spaces are forgiven.

    Parameters
    ----------
    code : str
        The code as entered by the customer.

    Returns
    -------
    tuple of (str, Decimal, Decimal)
        ``("percent" or "fixed", value, minimum subtotal)``.

    Raises
    ------
    ValueError
        If the code is malformed or a percentage is not between 1 and 99.
    """
    match = re.fullmatch(r"(SAVE|FLAT)(\d{1,3})(?:-MIN(\d+))?", code.strip().upper())
    if match is None:
        raise ValueError(f"malformed coupon code {code!r}")
    prefix, value, minimum = match.groups()
    kind = "percent" if prefix == "SAVE" else "fixed"
    value = Decimal(value)
    if kind == "percent" and not 0 < value < 100:
        raise ValueError(f"coupon percentage must be between 1 and 99, got {value}")
    return kind, value, Decimal(minimum) if minimum else Decimal(0)


def coupon_discount(code, subtotal):
    """Return how much a coupon takes off a basket's subtotal.

    A fixed coupon never takes more than the subtotal, and a coupon whose
    minimum is not reached simply gives nothing: the customer sees a hint
    in the shop instead of an error.

    Parameters
    ----------
    code : str
        A coupon code accepted by :func:`parse_coupon`.
    subtotal : Decimal, int, float or str
        The basket value before discount.

    Returns
    -------
    Decimal
        The discount, not rounded.

    Raises
    ------
    ValueError
        If the code is malformed.
    """
    kind, value, minimum = parse_coupon(code)
    subtotal = Decimal(str(subtotal))
    if subtotal < minimum:
        return Decimal(0)
    if kind == "percent":
        return subtotal - percent_off(subtotal, value)
    return min(value, subtotal)


def quote(lines, region, coupon=None):
    """Price a basket: line totals, coupon discount, tax and grand total.

    Parameters
    ----------
    lines : iterable of (Item, int)
        Items with their quantities. :class:`PricedItem` lines get their
        volume discounts; plain items are charged their unit price.
    region : str
        Region code used for tax, see :func:`tax_rate_for`.
    coupon : str, optional
        A coupon code applied to the subtotal before tax.

    Returns
    -------
    dict
        ``lines`` (list of ``(sku, qty, total)``), ``subtotal``,
        ``discount``, ``tax`` and ``total``, all rounded to cents.

    Raises
    ------
    PricingError
        If the basket is empty, a quantity is not positive, a line is not
        an item, or the coupon is malformed.
    """
    lines = list(lines)
    if not lines:
        raise PricingError("cannot quote an empty basket")
    breakdown = []
    subtotal = Decimal(0)
    for item, qty in lines:
        if isinstance(item, PricedItem):
            # price_for checks the quantity itself and applies volume rules.
            line_total = item.price_for(qty)
        elif isinstance(item, Item):
            if qty <= 0:
                raise PricingError(f"{item.sku}: quantity must be positive, got {qty}")
            line_total = round_money(item.unit_price * qty)
        else:
            raise PricingError(f"cannot price a {type(item).__name__}")
        breakdown.append((item.sku, qty, line_total))
        subtotal += line_total
    try:
        discount = round_money(coupon_discount(coupon, subtotal)) if coupon else Decimal("0.00")
    except ValueError as exc:
        raise PricingError(str(exc)) from exc
    tax = compute_tax(subtotal - discount, region)
    return {
        "lines": breakdown,
        "subtotal": subtotal,
        "discount": discount,
        "tax": tax,
        "total": subtotal - discount + tax,
    }
