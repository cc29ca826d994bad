from decimal import Decimal

import pytest

from inventory import Item, Stock
from inventory.errors import InventoryError, OutOfStockError, ValidationError
from inventory.models import Record


@pytest.fixture
def bolt():
    return Item("BOLT-M8", "Steel bolt M8x40", "0.35", "0.021", ("hardware", "metric"))


def test_catalog_fixture_lists_five_valid_items(catalog):
    assert sorted(catalog) == ["BOLT-M8", "GLUE-50", "NUT-M8", "SCREW-4", "SVC-INST"]
    assert catalog["SCREW-4"].unit_price == Decimal("0.045")
    assert catalog["BOLT-M8"].tags == ("hardware", "metric")
    assert catalog["SVC-INST"].tags == ()


def test_item_converts_prices_to_decimal():
    item = Item("A", "Thing", 1.1, weight_kg=0.25)
    assert item.unit_price == Decimal("1.1")
    assert item.weight_kg == Decimal("0.25")


def test_to_dict_follows_field_order(bolt):
    data = bolt.to_dict()
    assert list(data) == ["sku", "name", "unit_price", "weight_kg", "tags"]
    assert data["unit_price"] == Decimal("0.35")


def test_to_dict_of_stock():
    assert Stock("NUT-M8", on_hand=7, reserved=2).to_dict() == {"sku": "NUT-M8", "on_hand": 7, "reserved": 2}


def test_records_with_same_fields_are_equal(bolt):
    twin = Item("BOLT-M8", "Steel bolt M8x40", Decimal("0.35"), "0.021", ["hardware", "metric"])
    assert bolt == twin
    assert not bolt != twin


def test_records_with_different_fields_differ(bolt):
    assert bolt != Item("BOLT-M8", "Steel bolt M8x40", "0.36", "0.021", ("hardware", "metric"))


@pytest.mark.parametrize("other", [None, "BOLT-M8", {"sku": "BOLT-M8"}, Stock("BOLT-M8")])
def test_records_never_equal_other_types(bolt, other):
    assert bolt != other
    assert bolt.__eq__(other) is NotImplemented


def test_records_are_unhashable(bolt):
    with pytest.raises(TypeError):
        hash(bolt)


def test_repr_lists_fields():
    assert repr(Stock("A-1", on_hand=3)) == "Stock(sku='A-1', on_hand=3, reserved=0)"


def test_repr_of_item(bolt):
    assert repr(bolt) == (
        "Item(sku='BOLT-M8', name='Steel bolt M8x40', unit_price=Decimal('0.35'), "
        "weight_kg=Decimal('0.021'), tags=('hardware', 'metric'))"
    )


def test_from_dict_round_trips(bolt):
    assert Item.from_dict(bolt.to_dict()) == bolt


def test_from_dict_uses_constructor_defaults():
    stock = Stock.from_dict({"sku": "NUT-M8"})
    assert (stock.on_hand, stock.reserved) == (0, 0)


def test_from_dict_rejects_unknown_fields():
    with pytest.raises(ValidationError, match="colour: unknown field for Item") as info:
        Item.from_dict({"sku": "A", "name": "Thing", "unit_price": 1, "colour": "red"})
    assert info.value.field == "colour"


def test_from_dict_validates():
    with pytest.raises(ValidationError, match="on_hand: must not be negative"):
        Stock.from_dict({"sku": "A", "on_hand": -1})


def test_validate_returns_self(bolt):
    assert bolt.validate() is bolt


@pytest.mark.parametrize(
    "kwargs, field, message",
    [
        ({"sku": "", "name": "Thing", "unit_price": 1}, "sku", "is required"),
        ({"sku": "   ", "name": "Thing", "unit_price": 1}, "sku", "is required"),
        ({"sku": "A", "name": None, "unit_price": 1}, "name", "is required"),
        ({"sku": "A", "name": "Thing", "unit_price": -1}, "unit_price", "must not be negative"),
        ({"sku": "A", "name": "Thing", "unit_price": 1, "weight_kg": "-0.5"}, "weight_kg", "must not be negative"),
    ],
)
def test_validate_reports_first_bad_field(kwargs, field, message):
    with pytest.raises(ValidationError, match=message) as info:
        Item(**kwargs).validate()
    assert info.value.field == field


def test_validation_error_is_a_value_error():
    # Callers that only know about ValueError still catch our validation errors.
    with pytest.raises(ValueError):
        Stock("A", on_hand=-5).validate()


class TestCheckField:
    @pytest.mark.parametrize("value", [None, "", " \t"])
    def test_empty_optional_value_passes(self, value):
        assert Record()._check_field("note", value, required=False) is None

    @pytest.mark.parametrize("value", [0, 3, Decimal("0.01"), 2.5, True, False, "text", ()])
    def test_valid_values_pass(self, value):
        assert Record()._check_field("x", value, required=True) is None

    @pytest.mark.parametrize("value", [-1, Decimal("-0.01"), -2.5])
    def test_negative_numbers_fail(self, value):
        with pytest.raises(ValidationError, match="x: must not be negative"):
            Record()._check_field("x", value, required=False)

    def test_empty_required_value_fails(self):
        with pytest.raises(ValidationError, match="x: is required"):
            Record()._check_field("x", "", required=True)


def test_display_name(bolt):
    assert bolt.display_name == "Steel bolt M8x40 [BOLT-M8]"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Hardware, metric,,METRIC", ("hardware", "metric")),
        ("", ()),
        (" , ,", ()),
        ("b,a", ("a", "b")),
    ],
)
def test_parse_tags(text, expected):
    assert Item.parse_tags(text) == expected


def test_parse_tags_is_a_staticmethod(bolt):
    assert bolt.parse_tags("x") == ("x",)


def test_has_tag_is_case_insensitive(bolt):
    assert bolt.has_tag("Metric")
    assert not bolt.has_tag("wood")


class TestStock:
    def test_reserve_reduces_available(self):
        stock = Stock("NUT-M8", on_hand=10)
        assert stock.reserve(4) == 6
        assert stock.reserve(6) == 0
        assert (stock.reserved, stock.available) == (10, 0)

    def test_reserve_more_than_available_fails(self):
        stock = Stock("NUT-M8", on_hand=10, reserved=8)
        with pytest.raises(OutOfStockError) as info:
            stock.reserve(3)
        assert (info.value.requested, info.value.available) == (3, 2)
        assert stock.reserved == 8
        assert isinstance(info.value, InventoryError)

    @pytest.mark.parametrize("qty", [0, -2])
    def test_reserve_rejects_non_positive(self, qty):
        with pytest.raises(ValueError, match="positive"):
            Stock("A", on_hand=1).reserve(qty)

    def test_release_never_goes_negative(self):
        stock = Stock("A", on_hand=5, reserved=3)
        stock.release(2)
        assert stock.reserved == 1
        stock.release(10)
        assert stock.reserved == 0
