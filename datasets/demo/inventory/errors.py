"""Exceptions raised by the package.

Every error raised on purpose derives from :class:`InventoryError`, so a
caller can tell our failures apart from programming errors with one
``except`` clause.
"""


class InventoryError(Exception):
    """Base class for every error this package raises on purpose."""


class ValidationError(InventoryError, ValueError):
    """A record holds a value that breaks one of its invariants."""

    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


class OutOfStockError(InventoryError):
    """Fewer units of a SKU are available than were asked for."""

    def __init__(self, sku, requested, available):
        super().__init__(f"{sku}: requested {requested}, only {available} available")
        self.sku = sku
        self.requested = requested
        self.available = available


class PricingError(InventoryError):
    """A price, discount or coupon cannot be applied."""
