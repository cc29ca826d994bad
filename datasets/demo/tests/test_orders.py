from decimal import Decimal

import pytest

from inventory import Item, Order, OrderLine, fulfil
from inventory.orders import order_from_rows


def test_order_line_total():
    assert OrderLine("NUT-M8", 25, "0.08").total == Decimal("2.00")


def test_order_line_total_keeps_sub_cent_precision():
    assert OrderLine("SCREW-4", 3, "0.045").total == Decimal("0.135")


def test_new_order_fixture(new_order):
    assert len(new_order) == 2
    assert [line.sku for line in new_order] == ["BOLT-M8", "NUT-M8"]
    assert new_order.subtotal == Decimal("21.50")


class TestAddLine:
    def test_copies_sku_and_price(self, catalog):
        order = Order("SO-1", "ACME")
        line = order.add_line(catalog["GLUE-50"], 3)
        assert line == OrderLine("GLUE-50", 3, "4.90")
        assert order.lines == [line]

    def test_same_sku_merges_and_keeps_first_price(self, catalog):
        order = Order("SO-1", "ACME")
        first = order.add_line(catalog["GLUE-50"], 1)
        repriced = Item("GLUE-50", "Wood glue 50 ml", "5.50")
        assert order.add_line(repriced, 2) is first
        assert len(order) == 1
        assert first.qty == 3
        assert first.unit_price == Decimal("4.90")

    @pytest.mark.parametrize("qty", [0, -1])
    def test_rejects_non_positive(self, catalog, qty):
        with pytest.raises(ValueError, match="positive"):
            Order("SO-1", "ACME").add_line(catalog["GLUE-50"], qty)

    def test_rejects_lines_after_payment(self, paid_order, catalog):
        with pytest.raises(ValueError, match="is paid"):
            paid_order.add_line(catalog["GLUE-50"], 1)


class TestAdvance:
    @pytest.mark.parametrize(
        "events, final",
        [
            (["pay"], "paid"),
            (["cancel"], "cancelled"),
            (["pay", "ship", "deliver"], "delivered"),
            (["pay", "ship", "return"], "returned"),
            (["pay", "backorder", "ship"], "shipped"),
            (["pay", "backorder", "refund"], "refunded"),
            (["pay", "refund"], "refunded"),
        ],
    )
    def test_allowed_paths(self, new_order, events, final):
        for event in events:
            new_order.advance(event)
        assert new_order.status == final

    def test_returns_new_status(self, new_order):
        assert new_order.advance("pay") == "paid"

    @pytest.mark.parametrize(
        "events, bad, message",
        [
            ([], "ship", "allowed: cancel, pay"),
            (["pay"], "pay", "allowed: backorder, refund, ship"),
            (["cancel"], "pay", "none, the order is closed"),
            (["pay", "ship", "deliver"], "return", "none, the order is closed"),
            ([], "explode", "cannot explode"),
        ],
    )
    def test_forbidden_events(self, new_order, events, bad, message):
        for event in events:
            new_order.advance(event)
        status = new_order.status
        with pytest.raises(ValueError, match=message):
            new_order.advance(bad)
        assert new_order.status == status

    def test_empty_order_cannot_be_paid(self):
        with pytest.raises(ValueError, match="empty order"):
            Order("SO-2", "ACME").advance("pay")


@pytest.mark.parametrize(
    "region, coupon, expected",
    [
        ("DE", None, "25.59"),
        ("US-OR", None, "21.50"),
        ("DE", "SAVE10", "23.03"),
        ("DE", "FLAT5", "19.64"),
        ("DE", "SAVE10-MIN100", "25.59"),
    ],
)
def test_total_due(new_order, region, coupon, expected):
    assert new_order.total_due(region, coupon=coupon) == Decimal(expected)


def test_total_due_unknown_region(new_order):
    with pytest.raises(ValueError, match="no tax rate"):
        new_order.total_due("XX")


class TestOrderFromRows:
    def test_builds_lines(self, catalog):
        rows = [{"sku": "bolt-m8 ", "qty": "10"}, {"sku": "NUT-M8", "qty": "20.0"}, {"sku": "GLUE-50"}]
        order = order_from_rows("SO-7", "ACME", rows, catalog)
        assert [(line.sku, line.qty) for line in order] == [("BOLT-M8", 10), ("NUT-M8", 20), ("GLUE-50", 1)]
        assert (order.order_id, order.customer, order.status) == ("SO-7", "ACME", "new")

    def test_skips_blank_rows_and_merges_repeats(self, catalog):
        rows = [{"sku": "NUT-M8", "qty": 2}, {"sku": "", "qty": ""}, {"sku": None}, {"sku": "nut-m8", "qty": 3}]
        order = order_from_rows("SO-8", "ACME", rows, catalog)
        assert [(line.sku, line.qty) for line in order] == [("NUT-M8", 5)]

    def test_reports_all_unknown_skus(self, catalog):
        rows = [{"sku": "NOPE-2"}, {"sku": "NUT-M8"}, {"sku": "NOPE-1"}, {"sku": "NOPE-2"}]
        with pytest.raises(ValueError, match="unknown SKUs: NOPE-1, NOPE-2$"):
            order_from_rows("SO-9", "ACME", rows, catalog)

    @pytest.mark.parametrize("qty", ["2.5", "0", "-1"])
    def test_rejects_bad_quantities(self, catalog, qty):
        with pytest.raises(ValueError):
            order_from_rows("SO-9", "ACME", [{"sku": "NUT-M8", "qty": qty}], catalog)


class TestFulfil:
    def test_ships_when_everything_is_there(self, paid_order, warehouse):
        result = fulfil(paid_order, warehouse)
        assert result["picked"] == {"BOLT-M8": [("A-01", 50)], "NUT-M8": [("A-01", 50)]}
        assert result["backordered"] == []
        assert result["errors"] == []
        assert result["status"] == paid_order.status == "shipped"
        assert warehouse.total_on_hand("NUT-M8") == 150

    def test_backorders_missing_units(self, catalog, warehouse):
        order = Order("SO-2", "ACME")
        order.add_line(catalog["GLUE-50"], 5)
        order.add_line(catalog["SCREW-4"], 10)
        order.advance("pay")
        result = fulfil(order, warehouse)
        assert result["picked"] == {"GLUE-50": [("C-01", 2)]}
        assert result["backordered"] == [OrderLine("GLUE-50", 3, "4.90"), OrderLine("SCREW-4", 10, "0.045")]
        assert result["status"] == "backordered"
        assert warehouse.total_on_hand("GLUE-50") == 0

    def test_bad_lines_leave_the_order_paid(self, catalog, warehouse):
        order = Order("SO-3", "ACME", [OrderLine("NUT-M8", 0, "0.08"), OrderLine("BOLT-M8", 1, "0.35")])
        order.status = "paid"
        result = fulfil(order, warehouse)
        assert result["errors"] == ["NUT-M8: can only pick a positive quantity, got 0"]
        assert result["picked"] == {"BOLT-M8": [("A-01", 1)]}
        assert result["status"] == "paid"

    def test_reports_progress_for_every_line(self, paid_order, warehouse):
        seen = []
        fulfil(paid_order, warehouse, on_progress=seen.append)
        assert seen == ["BOLT-M8", "NUT-M8"]

    def test_only_paid_orders(self, new_order, warehouse):
        with pytest.raises(ValueError, match="only paid orders"):
            fulfil(new_order, warehouse)
