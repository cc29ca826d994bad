"""repocod-demo: a small inventory, pricing and order library.

The names most callers need are re-exported here, so that
``from inventory import Order, Warehouse`` works without knowing the module
layout.
"""

from .errors import InventoryError, OutOfStockError, PricingError, ValidationError
from .models import Item, Stock
from .orders import Order, OrderLine, fulfil
from .pricing import DiscountRule, PricedItem, quote
from .warehouse import Bin, Warehouse

__version__ = "0.1.0"

__all__ = [
    "Bin",
    "DiscountRule",
    "InventoryError",
    "Item",
    "Order",
    "OrderLine",
    "OutOfStockError",
    "PricedItem",
    "PricingError",
    "Stock",
    "ValidationError",
    "Warehouse",
    "fulfil",
    "quote",
]
