from decimal import Decimal

import pytest

from inventory import Order, OrderLine, Stock
from inventory.reports import (
    format_table,
    low_stock,
    read_csv,
    render_order,
    render_summary,
    stock_report,
    summarize,
    write_csv,
)


class TestFormatTable:
    def test_left_aligned_by_default(self):
        assert format_table([("a", 1), ("bbb", 22)], ("name", "n")) == "name  n\n----  --\na     1\nbbb   22"

    def test_right_alignment(self):
        text = format_table([("a", 1), ("bbb", 22)], ("name", "n"), align="lr")
        assert text.splitlines() == ["name   n", "----  --", "a      1", "bbb   22"]

    def test_header_only(self):
        assert format_table([], ("SKU", "Qty")) == "SKU  Qty\n---  ---"

    def test_wide_header_sets_width(self):
        assert format_table([("x",)], ("column",)).splitlines()[2] == "x"

    @pytest.mark.parametrize(
        "rows, align",
        [
            ([("only one",)], None),
            ([("a", "b", "c")], None),
            ([("a", "b")], "l"),
            ([("a", "b")], "lc"),
        ],
    )
    def test_rejects_mismatched_shapes(self, rows, align):
        with pytest.raises(ValueError):
            format_table(rows, ("x", "y"), align=align)


@pytest.mark.parametrize(
    "values, expected",
    [
        (["1.50", 2, 2.5], {"count": 3, "total": "6.00", "min": "1.50", "max": "2.5", "mean": "2.00"}),
        ([10], {"count": 1, "total": "10", "min": "10", "max": "10", "mean": "10"}),
        ([0.1, 0.2], {"count": 2, "total": "0.3", "min": "0.1", "max": "0.2", "mean": "0.15"}),
    ],
)
def test_summarize(values, expected):
    stats = summarize(values)
    assert stats["count"] == expected["count"]
    for key in ("total", "min", "max", "mean"):
        assert stats[key] == Decimal(expected[key]), key


def test_summarize_empty():
    assert summarize([]) == {"count": 0, "total": Decimal(0), "min": None, "max": None, "mean": None}


def test_summarize_accepts_generators():
    assert summarize(x for x in (1, 2, 3))["total"] == Decimal(6)


def test_render_summary():
    assert render_summary([1, 3], label="Sales").splitlines() == [
        "Sales",
        "statistic  value",
        "---------  -----",
        "count          2",
        "total          4",
        "min            1",
        "max            3",
        "mean           2",
    ]


def test_render_summary_of_nothing_uses_dashes():
    lines = render_summary([]).splitlines()
    assert lines[0] == "Amounts"
    assert lines[-1] == "mean           -"


@pytest.mark.parametrize(
    "threshold, expected",
    [(0, ["C"]), (2, ["C", "B"]), (5, ["C", "B", "A", "D"]), (-1, [])],
)
def test_low_stock(threshold, expected):
    snapshot = {
        "A": Stock("A", on_hand=5),
        "B": Stock("B", on_hand=4, reserved=2),
        "C": Stock("C", on_hand=0),
        "D": Stock("D", on_hand=5),
    }
    assert [stock.sku for stock in low_stock(snapshot, threshold)] == expected


def test_render_order(new_order):
    assert render_order(new_order) == "\n".join(
        [
            "Order SO-1001 for ACME Builders [new]",
            "SKU      Qty  Unit  Total",
            "-------  ---  ----  -----",
            "BOLT-M8   50  0.35  17.50",
            "NUT-M8    50  0.08   4.00",
            "Subtotal: 21.50",
        ]
    )


def test_render_order_rounds_each_amount():
    order = Order("SO-5", "Joinery", [OrderLine("SCREW-4", 3, "0.045")])
    assert render_order(order).splitlines()[3:] == ["SCREW-4    3  0.05   0.14", "Subtotal: 0.14"]


def test_stock_report(warehouse, catalog):
    warehouse.receive("MYSTERY", 4, bin_code="Z-01")
    assert stock_report(warehouse, catalog, threshold=2) == "\n".join(
        [
            "SKU      Units  Value  Flag",
            "-------  -----  -----  ----",
            "BOLT-M8    100  35.00",
            "GLUE-50      2   9.80  !",
            "MYSTERY      4   0.00  ?",
            "NUT-M8     200  16.00",
            "Total value: 60.80",
        ]
    )


def test_stock_report_without_low_stock(warehouse, catalog):
    assert "!" not in stock_report(warehouse, catalog)


class TestCsv:
    def test_write_then_read(self, tmp_path):
        path = tmp_path / "stock.csv"
        assert write_csv(path, [("BOLT-M8", 5), ("Crème, fine", 1)], ("sku", "qty")) == 2
        assert read_csv(path) == [{"sku": "BOLT-M8", "qty": "5"}, {"sku": "Crème, fine", "qty": "1"}]

    def test_uses_crlf_record_terminators(self, tmp_path):
        path = tmp_path / "out.csv"
        write_csv(path, [(1, 2)], ("a", "b"))
        assert path.read_bytes() == b"a,b\r\n1,2\r\n"

    def test_writes_header_for_no_rows(self, tmp_path):
        path = tmp_path / "empty.csv"
        assert write_csv(path, iter(()), ("sku",)) == 0
        assert path.read_bytes() == b"sku\r\n"
