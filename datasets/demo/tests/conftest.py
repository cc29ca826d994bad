"""Shared fixtures: a fixed catalogue, a stocked warehouse and a paid order."""

import pathlib

import pytest

from inventory.models import make_sample_catalog
from inventory.orders import Order
from inventory.warehouse import Warehouse

PROJECT_ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture
def project_root():
    """The folder holding the ``inventory`` package, for subprocess runs."""
    return PROJECT_ROOT


@pytest.fixture
def catalog():
    """The sample catalogue as a dict keyed by SKU."""
    return {item.sku: item for item in make_sample_catalog()}


@pytest.fixture
def warehouse():
    """A warehouse with two aisles; BOLT-M8 is split over two bins.

    GLUE-50 is deliberately scarce (2 units) so tests can run out of it.
    """
    wh = Warehouse("main")
    wh.receive("BOLT-M8", 60, bin_code="A-01")
    wh.receive("BOLT-M8", 40, bin_code="B-02")
    wh.receive("NUT-M8", 200, bin_code="A-01")
    wh.receive("GLUE-50", 2, bin_code="C-01")
    return wh


@pytest.fixture
def new_order(catalog):
    order = Order("SO-1001", "ACME Builders")
    order.add_line(catalog["BOLT-M8"], 50)
    order.add_line(catalog["NUT-M8"], 50)
    return order


@pytest.fixture
def paid_order(new_order):
    new_order.advance("pay")
    return new_order
