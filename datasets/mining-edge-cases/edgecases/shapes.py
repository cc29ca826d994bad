"""Methods: a property, a classmethod, a staticmethod, super()."""


class Square:
    """A square with a side."""

    def __init__(self, side):
        self.side = side

    @property
    def area(self):
        """The area: side times side."""
        return self.side * self.side

    @classmethod
    def unit(cls):
        """The square of side 1."""
        return cls(1)

    @staticmethod
    def sides():
        """A square has four sides."""
        return 4

    def describe(self):
        """A description."""
        return f"square {self.side}"


class LabelledSquare(Square):
    """A square with a label; describe() goes through super()."""

    def describe(self):
        """The parent's description, labelled."""
        return "labelled " + super().describe()
