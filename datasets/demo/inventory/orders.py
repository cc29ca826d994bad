"""Customer orders: lines, the order life cycle, totals and fulfilment."""

from decimal import Decimal

from . import pricing
from .errors import InventoryError, OutOfStockError
from .models import Record
from .util import round_money


class OrderLine(Record):
    """One SKU on an order, with the unit price agreed when it was added."""

    fields = ("sku", "qty", "unit_price")
    required = ("sku",)

    def __init__(self, sku, qty, unit_price):
        self.sku = sku
        self.qty = qty
        self.unit_price = Decimal(str(unit_price))

    @property
    def total(self):
        """The line total: quantity times the agreed unit price.

        The unit price is copied onto the line when it is added, so later
        catalogue price changes do not alter orders already placed. The
        total is not rounded; rounding happens once per invoice.

        Returns
        -------
        Decimal
            ``qty * unit_price``.

        Examples
        --------
        >>> OrderLine("NUT-M8", 25, "0.08").total
        Decimal('2.00')
        """
        return self.qty * self.unit_price


class Order:
    """A customer's order and where it is in its life cycle."""

    def __init__(self, order_id, customer, lines=()):
        self.order_id = order_id
        self.customer = customer
        self.lines = list(lines)
        self.status = "new"

    def __len__(self):
        return len(self.lines)

    def __iter__(self):
        return iter(self.lines)

    @property
    def subtotal(self):
        """Sum of the line totals, before discounts and tax."""
        return sum((line.total for line in self.lines), Decimal(0))

    def add_line(self, item, qty):
        """Add ``qty`` units of a catalogue item to the order.

        Adding a SKU that is already on the order increases that line
        instead of adding a second one, which keeps pick lists short; the
        price agreed on the first line is kept.

        Parameters
        ----------
        item : Item
            The catalogue item; its SKU and current unit price are copied.
        qty : int
            Units to add, at least 1.

        Returns
        -------
        OrderLine
            The new or updated line.

        Raises
        ------
        ValueError
            If the order is no longer new or ``qty`` is not positive.
        """
        if self.status != "new":
            raise ValueError(f"order {self.order_id} is {self.status}; lines can only be added to new orders")
        if qty <= 0:
            raise ValueError(f"quantity must be positive, got {qty}")
        for line in self.lines:
            if line.sku == item.sku:
                line.qty += qty
                return line
        line = OrderLine(item.sku, qty, item.unit_price)
        self.lines.append(line)
        return line

    def advance(self, event):
        """Move the order to its next state in response to ``event``.

        The life cycle is ``new -> paid -> shipped -> delivered``, with
        side exits: a new order can be cancelled, a paid order refunded or
        put on backorder, and a shipped order returned. An empty order
        cannot be paid for.

        Parameters
        ----------
        event : str
            One of ``pay``, ``cancel``, ``ship``, ``backorder``, ``refund``,
            ``deliver`` or ``return``.

        Returns
        -------
        str
            The new status.

        Raises
        ------
        ValueError
            If the event is not allowed in the current status.
        """
        transitions = {
            "new": {"pay": "paid", "cancel": "cancelled"},
            "paid": {"ship": "shipped", "backorder": "backordered", "refund": "refunded"},
            "backordered": {"ship": "shipped", "refund": "refunded"},
            "shipped": {"deliver": "delivered", "return": "returned"},
        }
        allowed = transitions.get(self.status, {})
        if event not in allowed:
            options = ", ".join(sorted(allowed)) or "none, the order is closed"
            raise ValueError(f"cannot {event} an order that is {self.status}; allowed: {options}")
        if event == "pay" and not self.lines:
            raise ValueError("cannot pay for an empty order")
        self.status = allowed[event]
        return self.status

    def total_due(self, region, coupon=None):
        """Return what the customer pays: subtotal, less coupon, plus tax.

        Parameters
        ----------
        region : str
            Region code for tax, see :func:`inventory.pricing.tax_rate_for`.
        coupon : str, optional
            A coupon code applied before tax.

        Returns
        -------
        Decimal
            The amount due, rounded to cents.

        Raises
        ------
        ValueError
            If the region is unknown or the coupon is malformed.

        Examples
        --------
        >>> order = Order("SO-1", "ACME", [OrderLine("GLUE-50", 2, "5.00")])
        >>> order.total_due("DE", coupon="SAVE10")
        Decimal('10.71')
        """
        subtotal = self.subtotal
        discount = pricing.coupon_discount(coupon, subtotal) if coupon else Decimal(0)
        taxable = subtotal - discount
        return round_money(taxable + pricing.compute_tax(taxable, region))


def _coerce_qty(value):
    """Turn a quantity cell (``"3"``, ``"3.0"``, ``3``) into an int."""
    number = Decimal(str(value).strip() or "0")
    if number != number.to_integral_value():
        raise ValueError(f"quantity must be a whole number, got {value!r}")
    return int(number)


def order_from_rows(order_id, customer, rows, catalog):
    """Build a new order from spreadsheet rows of ``sku`` and ``qty``.

    Blank SKUs are skipped, since exported sheets often end in empty rows,
    and a missing ``qty`` means one unit. Unknown SKUs are collected and
    reported together so the customer can fix the sheet in one go.

    Parameters
    ----------
    order_id, customer : str
        Identify the new order.
    rows : iterable of dict
        Rows with ``"sku"`` and optional ``"qty"`` keys.
    catalog : mapping of str to Item
        Catalogue items by SKU.

    Returns
    -------
    Order
        A new order with one line per distinct SKU.

    Raises
    ------
    ValueError
        If a SKU is unknown or a quantity is not a positive whole number.
    """
    order = Order(order_id, customer)
    unknown = []
    for row in rows:
        sku = (row.get("sku") or "").strip().upper()
        if not sku:
            continue
        item = catalog.get(sku)
        if item is None:
            unknown.append(sku)
            continue
        order.add_line(item, _coerce_qty(row.get("qty") or 1))
    if unknown:
        raise ValueError(f"unknown SKUs: {', '.join(sorted(set(unknown)))}")
    return order


def fulfil(order, warehouse, on_progress=None):
    """Pick a paid order from the warehouse and advance its status.

    Lines are picked one by one. A line that cannot be picked in full takes
    what is there and backorders the rest, rather than holding up the whole
    order; any other stock error is recorded and leaves the order paid so a
    person can look at it.

    Parameters
    ----------
    order : Order
        A paid order.
    warehouse : Warehouse
        Where to pick from.
    on_progress : callable, optional
        Called with each line's SKU once the line is done, picked or not.

    Returns
    -------
    dict
        ``picked`` (SKU to ``(bin, units)`` list), ``backordered`` (lines
        of missing units), ``errors`` and the resulting ``status``.
    """
    if order.status != "paid":
        raise ValueError(f"only paid orders can be fulfilled; {order.order_id} is {order.status}")
    picked = {}
    backordered = []
    errors = []
    for line in order.lines:
        try:
            picks = warehouse.pick(line.sku, line.qty)
        except OutOfStockError as exc:
            if exc.available > 0:
                picked[line.sku] = warehouse.pick(line.sku, exc.available)
            backordered.append(OrderLine(line.sku, line.qty - exc.available, line.unit_price))
        except (InventoryError, ValueError) as exc:
            errors.append(f"{line.sku}: {exc}")
        else:
            picked[line.sku] = picks
        finally:
            if on_progress is not None:
                on_progress(line.sku)
    # With errors the order stays paid: a person has to decide what to do.
    if not errors:
        order.advance("backorder" if backordered else "ship")
    return {
        "picked": picked,
        "backordered": backordered,
        "errors": errors,
        "status": order.status,
    }
