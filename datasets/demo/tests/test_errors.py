import pytest

from inventory import InventoryError, OutOfStockError, PricingError, ValidationError


@pytest.mark.parametrize("cls", [OutOfStockError, PricingError, ValidationError])
def test_every_error_is_an_inventory_error(cls):
    assert issubclass(cls, InventoryError)


def test_validation_error_keeps_the_field():
    error = ValidationError("sku", "is required")
    assert (str(error), error.field) == ("sku: is required", "sku")


def test_out_of_stock_error_message_and_attributes():
    error = OutOfStockError("NUT-M8", 5, 2)
    assert str(error) == "NUT-M8: requested 5, only 2 available"
    assert (error.sku, error.requested, error.available) == ("NUT-M8", 5, 2)
