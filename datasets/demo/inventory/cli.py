"""Command line entry point: ``python -m inventory.cli``.

Two commands, meant for cron jobs and shell pipelines:

* ``stock FILE`` loads bin contents from a CSV file (columns ``sku``,
  ``qty`` and optional ``bin``) and lists the SKUs that are low;
* ``tax AMOUNT REGION`` prints the tax due on an amount.
"""

import argparse
import sys

from . import reports
from .pricing import compute_tax
from .warehouse import Warehouse


def _build_parser():
    parser = argparse.ArgumentParser(prog="inventory", description="Inventory helpers.")
    commands = parser.add_subparsers(dest="command", required=True)
    stock = commands.add_parser("stock", help="list low stock from a CSV of bin contents")
    stock.add_argument("path", help="CSV file with sku, qty and optional bin columns")
    stock.add_argument("--threshold", type=int, default=0, help="report SKUs at or below this")
    stock.add_argument("--strict", action="store_true", help="exit with 1 when anything is low")
    tax = commands.add_parser("tax", help="print the tax due on an amount")
    tax.add_argument("amount")
    tax.add_argument("region")
    return parser


def main(argv=None):
    """Run the command line interface and return the process exit status.

    Errors a user can fix (a missing file, a bad number, an unknown
    region) are printed to stderr as one line and give status 2, the
    convention for usage errors, instead of a traceback.

    Parameters
    ----------
    argv : list of str, optional
        Arguments without the program name; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        0 on success; 1 when ``stock --strict`` found low stock; 2 on a
        usage or input error.
    """
    args = _build_parser().parse_args(argv)
    try:
        if args.command == "tax":
            print(compute_tax(args.amount, args.region))
            return 0
        warehouse = Warehouse("cli")
        for row in reports.read_csv(args.path):
            warehouse.receive(row["sku"].strip(), int(row["qty"]), bin_code=row.get("bin") or None)
        low = reports.low_stock(warehouse.snapshot(), args.threshold)
    except FileNotFoundError as exc:
        print(f"error: no such file: {exc.filename}", file=sys.stderr)
        return 2
    except (KeyError, ValueError, ArithmeticError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if low:
        print(reports.format_table([(s.sku, s.on_hand) for s in low], ("SKU", "Units"), align="lr"))
    else:
        print(f"nothing at or below {args.threshold} units")
    return 1 if low and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
