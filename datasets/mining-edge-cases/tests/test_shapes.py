from edgecases.shapes import LabelledSquare, Square


def test_area():
    assert Square(3).area == 9


def test_unit_and_sides():
    assert Square.unit().side == 1
    assert Square.sides() == 4


def test_labelled_describe():
    assert LabelledSquare(2).describe() == "labelled square 2"
