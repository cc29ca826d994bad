import pytest

from edgecases.core import make_config


@pytest.fixture(scope="module")
def config():
    """Set up once per module, inside whichever test asks first."""
    return make_config()
