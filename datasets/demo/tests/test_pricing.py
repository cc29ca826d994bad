from decimal import Decimal

import pytest

from inventory import DiscountRule, Item, PricedItem, PricingError, ValidationError, quote
from inventory.pricing import (
    best_discount,
    compute_tax,
    coupon_discount,
    parse_coupon,
    percent_off,
    tax_rate_for,
)


@pytest.fixture
def bulk_screw():
    return PricedItem("SCREW-4", "Wood screw 4x30", "0.045", rules=[(1000, 10), (100, 5)])


def test_discount_rule_rejects_bad_values():
    with pytest.raises(PricingError):
        DiscountRule(0, 5)
    with pytest.raises(PricingError):
        DiscountRule(10, 100)
    assert repr(DiscountRule(10, "2.5")) == "DiscountRule(min_qty=10, percent=2.5)"


def test_priced_item_sorts_rules_and_accepts_pairs(bulk_screw):
    assert [rule.min_qty for rule in bulk_screw.rules] == [100, 1000]
    assert isinstance(bulk_screw.rules[0], DiscountRule)


def test_priced_item_to_dict_has_plain_rules(bulk_screw):
    data = bulk_screw.to_dict()
    assert data["rules"] == [(100, Decimal(5)), (1000, Decimal(10))]
    # The base class fields come first, from Record.to_dict via super().
    assert list(data)[:5] == ["sku", "name", "unit_price", "weight_kg", "tags"]


def test_priced_item_round_trips_through_dict(bulk_screw):
    copy = PricedItem.from_dict(bulk_screw.to_dict())
    assert copy == bulk_screw
    assert copy is not bulk_screw


def test_priced_item_is_not_equal_to_plain_item():
    priced = PricedItem("A", "Thing", "1")
    assert priced != Item("A", "Thing", "1")


@pytest.mark.parametrize(
    "qty, expected",
    [
        (1, "0.05"),
        (99, "4.46"),
        (100, "4.28"),
        (999, "42.71"),
        (1000, "40.50"),
    ],
)
def test_price_for_applies_best_volume_discount(bulk_screw, qty, expected):
    assert bulk_screw.price_for(qty) == Decimal(expected)


def test_price_for_rejects_non_positive_quantity(bulk_screw):
    with pytest.raises(PricingError, match="quantity must be positive"):
        bulk_screw.price_for(0)


def test_price_for_validates_the_item_first():
    broken = PricedItem("A", "Thing", "-1")
    with pytest.raises(ValidationError, match="unit_price"):
        broken.price_for(1)


@pytest.mark.parametrize(
    "amount, percent, expected",
    [
        (80, 15, "68"),
        ("100.00", 0, "100.00"),
        ("19.99", "12.5", "17.49125"),
        (0, 50, "0"),
    ],
)
def test_percent_off(amount, percent, expected):
    assert percent_off(amount, percent) == Decimal(expected)


@pytest.mark.parametrize(
    "qty, expected",
    [(5, "0"), (10, "5"), (49, "5"), (50, "12"), (500, "12")],
)
def test_best_discount(qty, expected):
    rules = [DiscountRule(50, 12), DiscountRule(10, 5)]
    assert best_discount(rules, qty) == Decimal(expected)


def test_best_discount_does_not_assume_growing_rules():
    rules = [DiscountRule(10, 20), DiscountRule(100, 5)]
    assert best_discount(rules, 150) == Decimal(20)
    assert best_discount([], 150) == Decimal(0)


@pytest.mark.parametrize(
    "region, rate",
    [
        ("DE", "19"),
        (" de ", "19"),
        ("AT", "20"),
        ("GB", "20"),
        ("UK", "20"),
        ("CH", "8.1"),
        ("US-CA", "7.25"),
        ("us-ny", "4"),
        ("US-OR", "0"),
    ],
)
def test_tax_rate_for(region, rate):
    assert tax_rate_for(region) == Decimal(rate)


@pytest.mark.parametrize(
    "region, message",
    [
        ("", "required"),
        ("US", "need a state"),
        ("US-ZZ", "no tax rate known"),
        ("FR", "no tax rate known"),
    ],
)
def test_tax_rate_for_rejects(region, message):
    with pytest.raises(ValueError, match=message):
        tax_rate_for(region)


@pytest.mark.parametrize(
    "amount, region, expected",
    [
        ("100.00", "DE", "19.00"),
        ("9.99", "US-CA", "0.72"),
        (0.05, "CH", "0.00"),
        ("12.50", "US-OR", "0.00"),
    ],
)
def test_compute_tax(amount, region, expected):
    assert compute_tax(amount, region) == Decimal(expected)


@pytest.mark.parametrize(
    "code, expected",
    [
        ("SAVE10", ("percent", Decimal(10), Decimal(0))),
        (" save15-min100 ", ("percent", Decimal(15), Decimal(100))),
        ("FLAT5", ("fixed", Decimal(5), Decimal(0))),
        ("flat250-MIN1000", ("fixed", Decimal(250), Decimal(1000))),
    ],
)
def test_parse_coupon(code, expected):
    assert parse_coupon(code) == expected


@pytest.mark.parametrize("code", ["", "SAVE", "SAVE10%", "GIFT10", "SAVE10-MAX5", "FLAT1234"])
def test_parse_coupon_rejects_malformed(code):
    with pytest.raises(ValueError, match="malformed"):
        parse_coupon(code)


@pytest.mark.parametrize("code", ["SAVE0", "SAVE100"])
def test_parse_coupon_rejects_out_of_range_percent(code):
    with pytest.raises(ValueError, match="between 1 and 99"):
        parse_coupon(code)


@pytest.mark.parametrize(
    "code, subtotal, expected",
    [
        ("SAVE10", "50.00", "5.0000"),
        ("SAVE15-MIN100", "99.99", "0"),
        ("SAVE15-MIN100", "100", "15"),
        ("FLAT5", "20", "5"),
        ("FLAT5", "3.50", "3.50"),
    ],
)
def test_coupon_discount(code, subtotal, expected):
    assert coupon_discount(code, subtotal) == Decimal(expected)


class TestQuote:
    def test_plain_items(self, catalog):
        result = quote([(catalog["BOLT-M8"], 10), (catalog["GLUE-50"], 1)], "DE")
        assert result["lines"] == [("BOLT-M8", 10, Decimal("3.50")), ("GLUE-50", 1, Decimal("4.90"))]
        assert result["subtotal"] == Decimal("8.40")
        assert result["discount"] == Decimal("0.00")
        assert result["tax"] == Decimal("1.60")
        assert result["total"] == Decimal("10.00")

    def test_priced_items_and_coupon(self, bulk_screw, catalog):
        result = quote([(bulk_screw, 1000), (catalog["SVC-INST"], 1)], "US-CA", coupon="SAVE10")
        assert result["subtotal"] == Decimal("85.50")
        assert result["discount"] == Decimal("8.55")
        assert result["tax"] == Decimal("5.58")
        assert result["total"] == Decimal("82.53")

    def test_accepts_a_generator(self, catalog):
        result = quote(((catalog[sku], 2) for sku in ("NUT-M8", "BOLT-M8")), "CH")
        assert result["subtotal"] == Decimal("0.86")

    def test_empty_basket(self):
        with pytest.raises(PricingError, match="empty basket"):
            quote([], "DE")

    @pytest.mark.parametrize("qty", [0, -1])
    def test_non_positive_quantity(self, catalog, bulk_screw, qty):
        with pytest.raises(PricingError, match="quantity must be positive"):
            quote([(catalog["BOLT-M8"], qty)], "DE")
        with pytest.raises(PricingError, match="quantity must be positive"):
            quote([(bulk_screw, qty)], "DE")

    def test_rejects_non_items(self):
        with pytest.raises(PricingError, match="cannot price a dict"):
            quote([({"sku": "A"}, 1)], "DE")

    def test_malformed_coupon_becomes_pricing_error(self, catalog):
        with pytest.raises(PricingError, match="malformed coupon") as info:
            quote([(catalog["BOLT-M8"], 1)], "DE", coupon="BOGUS")
        assert isinstance(info.value.__cause__, ValueError)
