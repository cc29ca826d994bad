import pytest

from edgecases.cases import square_cases

# Built when the module is imported: without square_cases' body, the module does not import.
SQUARES = dict(square_cases())


@pytest.mark.parametrize("number", sorted(SQUARES))
def test_square(number):
    assert number * number == SQUARES[number]
