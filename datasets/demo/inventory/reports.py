"""Plain-text and CSV reports for orders and stock.

This file has Windows (CRLF) line endings, as it did in the back-office
tool it came from; ``.gitattributes`` marks it ``-text`` so that git keeps
them.
"""

import csv
from decimal import Decimal

from .util import round_money as money


def format_table(rows, headers, align=None):
    """Lay out rows as a fixed-width text table with a header rule.

    Every cell is converted with ``str``. Columns are as wide as their
    widest cell and separated by two spaces; trailing spaces are trimmed
    so the output diffs cleanly in tests and e-mails.

    Parameters
    ----------
    rows : iterable of sequence
        The table body; every row must have one cell per header.
    headers : sequence of str
        Column titles.
    align : str, optional
        One letter per column, ``"l"`` or ``"r"``; left by default.

    Returns
    -------
    str
        The table, lines joined with ``"\\n"`` and no trailing newline.

    Raises
    ------
    ValueError
        If a row or ``align`` does not match the number of headers.
    """
    table = [[str(cell) for cell in headers]] + [[str(cell) for cell in row] for row in rows]
    if any(len(row) != len(headers) for row in table):
        raise ValueError(f"every row needs {len(headers)} cells")
    align = align or "l" * len(headers)
    if len(align) != len(headers) or set(align) - {"l", "r"}:
        raise ValueError(f"align must be {len(headers)} letters from 'l' and 'r', got {align!r}")
    widths = [max(len(row[col]) for row in table) for col in range(len(headers))]

    def render(row):
        cells = (
            cell.rjust(width) if side == "r" else cell.ljust(width)
            for cell, width, side in zip(row, widths, align)
        )
        return "  ".join(cells).rstrip()

    rule = "  ".join("-" * width for width in widths).rstrip()
    return "\n".join([render(table[0]), rule] + [render(row) for row in table[1:]])


def summarize(values):
    '''Return count, total, minimum, maximum and mean of some amounts.

    Amounts are converted to ``Decimal`` through ``str`` first, so floats
    and strings from CSV files can be mixed without binary rounding noise.
    An empty input is not an error: the statistics that need at least one
    value are ``None``.

    Parameters
    ----------
    values : iterable of number or str
        The amounts.

    Returns
    -------
    dict
        ``count``, ``total``, ``min``, ``max`` and ``mean`` (not rounded).

    Examples
    --------
    >>> summarize(["1.50", 2, 2.5])["mean"]
    Decimal('2.00')
    '''
    amounts = [Decimal(str(value)) for value in values]
    count = len(amounts)
    total = sum(amounts, Decimal(0))
    return {
        "count": count,
        "total": total,
        "min": min(amounts) if amounts else None,
        "max": max(amounts) if amounts else None,
        "mean": total / count if count else None,
    }


def render_summary(values, label="Amounts"):
    """Render the statistics of :func:`summarize` as a two-column table.

    Missing statistics (for an empty input) are shown as ``-`` so the
    report keeps its shape.

    Parameters
    ----------
    values : iterable of number or str
        The amounts.
    label : str, optional
        Title printed above the table, by default ``"Amounts"``.

    Returns
    -------
    str
        The title, then a table with one row per statistic.

    Examples
    --------
    >>> print(render_summary([1, 3]).splitlines()[0])
    Amounts
    """
    stats = summarize(values)
    rows = [(name, "-" if value is None else value) for name, value in stats.items()]
    return label + "\n" + format_table(rows, ("statistic", "value"), align="lr")


def low_stock(snapshot, threshold=0):
    """Return the stock records at or below ``threshold`` available units.

    The most urgent records come first: fewest available units, then SKU
    so that the order is stable between runs.

    Parameters
    ----------
    snapshot : mapping of str to Stock
        Stock records by SKU, as from :meth:`Warehouse.snapshot`.
    threshold : int, optional
        Highest available quantity still reported, by default 0.

    Returns
    -------
    list of Stock
        The records to reorder, most urgent first.

    Examples
    --------
    >>> low_stock({}, threshold=5)
    []
    """
    return sorted(
        (stock for stock in snapshot.values() if stock.available <= threshold),
        key=lambda stock: (stock.available, stock.sku),
    )


def render_order(order):
    """Render an order as a text invoice body.

    Amounts are shown rounded to cents; the subtotal is computed from the
    unrounded line totals and rounded once, like the invoice itself.

    Parameters
    ----------
    order : Order
        The order to render.

    Returns
    -------
    str
        A header line with the order id, customer and status, a table of
        lines (SKU, quantity, unit price, line total) and a subtotal line.

    Examples
    --------
    >>> from inventory.orders import Order
    >>> render_order(Order("SO-1", "ACME")).splitlines()[0]
    'Order SO-1 for ACME [new]'
    """
    rows = [(line.sku, line.qty, money(line.unit_price), money(line.total)) for line in order.lines]
    table = format_table(rows, ("SKU", "Qty", "Unit", "Total"), align="lrrr")
    header = f"Order {order.order_id} for {order.customer} [{order.status}]"
    return "\n".join([header, table, f"Subtotal: {money(order.subtotal)}"])


def stock_report(warehouse, catalog, threshold=0):
    """Render the stock of a warehouse with its value at catalogue prices.

    SKUs missing from the catalogue are still listed, valued at zero and
    flagged with ``?``, because stock nobody can sell is exactly what this
    report is for. Low stock, as defined by :func:`low_stock`, is flagged
    with ``!``.

    Parameters
    ----------
    warehouse : Warehouse
        The warehouse to report on.
    catalog : mapping of str to Item
        Catalogue items by SKU, for unit prices.
    threshold : int, optional
        Low-stock threshold, by default 0.

    Returns
    -------
    str
        A table of SKU, units, value and flag, then the total value.
    """
    snapshot = warehouse.snapshot()
    low = {stock.sku for stock in low_stock(snapshot, threshold)}
    rows = []
    total = Decimal(0)
    for sku, stock in snapshot.items():
        item = catalog.get(sku)
        value = money(stock.on_hand * item.unit_price) if item is not None else money(0)
        flag = "?" if item is None else ("!" if sku in low else "")
        rows.append((sku, stock.on_hand, value, flag))
        total += value
    table = format_table(rows, ("SKU", "Units", "Value", "Flag"), align="lrrl")
    return f"{table}\nTotal value: {money(total)}"


def write_csv(path, rows, headers):
    """Write rows to a UTF-8 CSV file with a header line.

    The file is written with ``newline=""`` as the :mod:`csv` module
    requires, so that the writer's own ``\\r\\n`` record terminators are not
    doubled on Windows.

    Parameters
    ----------
    path : str or os.PathLike
        Destination file; it is overwritten.
    rows : iterable of sequence
        Data rows.
    headers : sequence of str
        Column names for the first line.

    Returns
    -------
    int
        Number of data rows written.
    """
    count = 0
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(headers)
        for row in rows:
            writer.writerow(row)
            count += 1
    return count


def read_csv(path):
    """Read a CSV file with a header line into a list of dicts."""
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))
