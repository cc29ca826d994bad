"""End-to-end flows across modules, through the package's public names."""

import asyncio
from decimal import Decimal

import pytest

import inventory
from inventory import Order, PricedItem, Warehouse, fulfil, quote
from inventory.orders import order_from_rows
from inventory.reports import read_csv, render_order, stock_report, write_csv
from inventory.warehouse import restock_all


def test_public_names_are_reexported():
    for name in inventory.__all__:
        assert getattr(inventory, name).__module__.startswith("inventory.")
    assert inventory.__version__ == "0.1.0"


def test_spreadsheet_order_to_shipment(tmp_path, catalog, warehouse):
    sheet = tmp_path / "order.csv"
    write_csv(sheet, [("BOLT-M8", 30), ("nut-m8", 30), ("", "")], ("sku", "qty"))
    order = order_from_rows("SO-42", "ACME", read_csv(sheet), catalog)
    assert order.total_due("DE") == Decimal("15.35")
    order.advance("pay")
    result = fulfil(order, warehouse)
    assert result["status"] == "shipped"
    assert render_order(order).splitlines()[0] == "Order SO-42 for ACME [shipped]"
    assert warehouse.total_on_hand("BOLT-M8") == 70


def test_quote_matches_order_total(catalog):
    order = Order("SO-43", "ACME")
    basket = [(catalog["BOLT-M8"], 12), (catalog["GLUE-50"], 2)]
    for item, qty in basket:
        order.add_line(item, qty)
    assert quote(basket, "US-CA", coupon="FLAT5")["total"] == order.total_due("US-CA", coupon="FLAT5")


def test_backorder_then_restock_then_ship(catalog, warehouse):
    order = Order("SO-44", "ACME")
    order.add_line(catalog["GLUE-50"], 6)
    order.advance("pay")
    first = fulfil(order, warehouse)
    assert order.status == "backordered"
    (missing,) = first["backordered"]

    async def supplier(sku):
        return 10

    asyncio.run(restock_all(warehouse, supplier, [missing.sku]))
    # The first pick emptied C-01, so the delivery went to the first bin.
    assert warehouse.pick(missing.sku, missing.qty) == [("A-01", 4)]
    order.advance("ship")
    assert order.status == "shipped"
    assert "GLUE-50      6" in stock_report(warehouse, catalog)


def test_volume_priced_catalogue_quote():
    screws = PricedItem("SCREW-4", "Wood screw 4x30", "0.045", rules=[(100, 5)])
    result = quote([(screws, 200)], "GB", coupon="SAVE10-MIN5")
    assert (result["subtotal"], result["discount"], result["tax"], result["total"]) == (
        Decimal("8.55"),
        Decimal("0.86"),
        Decimal("1.54"),
        Decimal("9.23"),
    )


def test_warehouse_round_trip_through_csv(tmp_path, warehouse):
    path = tmp_path / "bins.csv"
    rows = [(sku, qty, code) for code, bin_ in sorted(warehouse.bins.items()) for sku, qty in bin_.items()]
    write_csv(path, rows, ("sku", "qty", "bin"))
    copy = Warehouse("copy")
    for row in read_csv(path):
        copy.receive(row["sku"], int(row["qty"]), bin_code=row["bin"])
    assert copy.snapshot() == warehouse.snapshot()


@pytest.mark.skip(reason="demonstrates the runner's 'skipped' outcome; nothing to test")
def test_skipped_outcome_example():
    raise AssertionError("never runs")
