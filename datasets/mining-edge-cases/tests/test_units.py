from edgecases.units import UNITS


def test_kilometre():
    assert UNITS["km"] == 1000
