"""Value records: the catalogue item and the stock level of one SKU.

Records are plain mutable objects with a declared list of fields. The base
class derives equality, ``repr``, dict conversion and validation from that
list so that subclasses (here and in :mod:`inventory.pricing` and
:mod:`inventory.orders`) only declare their fields.
"""

from decimal import Decimal

from .errors import OutOfStockError, ValidationError


class Record:
    """Base class for records described by a tuple of field names."""

    #: Attribute names that make up the record, in display order.
    fields = ()
    #: Fields that must hold a non-empty value.
    required = ()

    # Records are mutable, so they must not be hashable even though they
    # define equality; stating it keeps linters and readers from wondering.
    __hash__ = None

    def to_dict(self):
        """Return the record's fields as a new dictionary.

        The dictionary follows the declared field order and holds the
        attribute values themselves, not copies, so mutating a list held by
        the record through the dictionary changes the record too.

        Returns
        -------
        dict
            ``{field: value}`` for every name in :attr:`fields`.

        Examples
        --------
        >>> Stock("BOLT-M8", on_hand=5).to_dict()
        {'sku': 'BOLT-M8', 'on_hand': 5, 'reserved': 0}
        """
        return {name: getattr(self, name) for name in self.fields}

    def __eq__(self, other):
        """Compare two records field by field.

        Records of different classes never compare equal, even when one
        subclasses the other: a priced item is not the same thing as the
        plain item it was made from.

        Parameters
        ----------
        other : object
            The object to compare with.

        Returns
        -------
        bool or NotImplemented
            ``NotImplemented`` for objects that are not records of the same
            class, so that Python can try the reflected comparison.
        """
        if type(other) is not type(self):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self):
        """Return a constructor-like representation listing every field.

        The output is meant for logs and test failure messages: each field
        appears as ``name=value`` with the value's own ``repr``, in the
        declared order.

        Returns
        -------
        str
            For example ``"Stock(sku='A-1', on_hand=3, reserved=0)"``.

        Examples
        --------
        >>> Stock("A-1", on_hand=3)
        Stock(sku='A-1', on_hand=3, reserved=0)
        """
        args = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.fields)
        return f"{type(self).__name__}({args})"

    @classmethod
    def from_dict(cls, data):
        """Build a record from a mapping such as the output of :meth:`to_dict`.

        Unknown keys are an error rather than being ignored, because they
        almost always mean a misspelt column in an import file.

        Parameters
        ----------
        data : mapping
            Field values by name. Missing optional fields take the
            constructor's defaults.

        Returns
        -------
        Record
            A new, validated instance of ``cls``.

        Raises
        ------
        ValidationError
            If ``data`` has keys that are not fields, or a value is invalid.
        """
        unknown = sorted(set(data) - set(cls.fields))
        if unknown:
            raise ValidationError(unknown[0], f"unknown field for {cls.__name__}")
        return cls(**data).validate()

    def validate(self):
        """Check every field and return the record itself.

        Returning ``self`` lets callers validate inline, as in
        ``items.append(Item(...).validate())``.

        Returns
        -------
        Record
            ``self``, unchanged.

        Raises
        ------
        ValidationError
            For the first field, in declared order, that is invalid: a
            required field that is empty, or a negative number.
        """
        for name in self.fields:
            self._check_field(name, getattr(self, name), name in self.required)
        return self

    def _check_field(self, name, value, required):
        """Validate one field value.

        Empty means ``None`` or a string holding only whitespace. Booleans
        are integers in Python but never quantities, so they skip the sign
        check.

        Parameters
        ----------
        name : str
            Field name, used in the error message.
        value : object
            The value to check.
        required : bool
            Whether an empty value is an error.

        Raises
        ------
        ValidationError
            If the value is empty while required, or a negative number.
        """
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                raise ValidationError(name, "is required")
            return
        if isinstance(value, bool):
            return
        if isinstance(value, (int, float, Decimal)) and value < 0:
            raise ValidationError(name, f"must not be negative, got {value}")


class Item(Record):
    """A catalogue entry: what a SKU is and what it costs per unit."""

    fields = ("sku", "name", "unit_price", "weight_kg", "tags")
    required = ("sku", "name")

    def __init__(self, sku, name, unit_price, weight_kg=0, tags=()):
        self.sku = sku
        self.name = name
        # Prices and weights arrive as strings from CSV files and as floats
        # from JSON; Decimal(str(...)) treats both as the decimal written.
        self.unit_price = Decimal(str(unit_price))
        self.weight_kg = Decimal(str(weight_kg))
        self.tags = tuple(tags)

    @property
    def display_name(self):
        """Label shown to people: the item name followed by its SKU.

        Pickers search by SKU while customers read names, so screens and
        pick lists show both.

        Returns
        -------
        str
            ``"<name> [<sku>]"``.

        Examples
        --------
        >>> Item("BOLT-M8", "Steel bolt", "0.35").display_name
        'Steel bolt [BOLT-M8]'"""
        return f"{self.name} [{self.sku}]"

    @staticmethod
    def parse_tags(text):
        """Parse a comma-separated tag list as typed in a spreadsheet cell.

        Tags are stripped, lower-cased and de-duplicated; empty entries from
        doubled or trailing commas are dropped.

        Parameters
        ----------
        text : str
            For example ``"Hardware, metric,,METRIC"``.

        Returns
        -------
        tuple of str
            The tags in alphabetical order.

        Examples
        --------
        >>> Item.parse_tags("Hardware, metric,,METRIC")
        ('hardware', 'metric')
        """
        return tuple(sorted({tag.strip().lower() for tag in text.split(",") if tag.strip()}))

    def has_tag(self, tag):
        return tag.lower() in self.tags


class Stock(Record):
    """How many units of one SKU are on hand and how many are promised."""

    fields = ("sku", "on_hand", "reserved")
    required = ("sku",)

    def __init__(self, sku, on_hand=0, reserved=0):
        self.sku = sku
        self.on_hand = on_hand
        self.reserved = reserved

    @property
    def available(self):
        """Units on hand that are not yet promised to an order."""
        return self.on_hand - self.reserved

    def reserve(self, qty):
        """Promise ``qty`` units to an order.

        Reserving does not move stock; it only stops the same units from
        being promised twice before they are picked.

        Parameters
        ----------
        qty : int
            Units to reserve, at least 1.

        Returns
        -------
        int
            Units still available after the reservation.

        Raises
        ------
        ValueError
            If ``qty`` is not positive.
        OutOfStockError
            If fewer than ``qty`` units are available.
        """
        if qty <= 0:
            raise ValueError(f"can only reserve a positive quantity, got {qty}")
        if qty > self.available:
            raise OutOfStockError(self.sku, qty, self.available)
        self.reserved += qty
        return self.available

    def release(self, qty):
        """Give back ``qty`` reserved units, never going below zero."""
        self.reserved = max(0, self.reserved - qty)


def make_sample_catalog():
    """Return the fixed demo catalogue used by examples and test fixtures.

    The catalogue covers the cases the rest of the package cares about:
    items with and without tags, a weightless service item and a price
    with more than two decimals (bulk screws are priced per unit in
    tenths of a cent).

    Returns
    -------
    list of Item
        Five validated items, ordered by SKU.

    Examples
    --------
    >>> [item.sku for item in make_sample_catalog()][:2]
    ['BOLT-M8', 'GLUE-50']
    """
    rows = [
        ("BOLT-M8", "Steel bolt M8x40", "0.35", "0.021", "hardware, metric"),
        ("GLUE-50", "Wood glue 50 ml", "4.90", "0.06", "adhesive"),
        ("NUT-M8", "Hex nut M8", "0.08", "0.005", "hardware,metric"),
        ("SCREW-4", "Wood screw 4x30", "0.045", "0.003", "hardware"),
        ("SVC-INST", "Installation service", "45.00", "0", ""),
    ]
    return [
        Item(sku, name, price, weight, Item.parse_tags(tags)).validate()
        for sku, name, price, weight, tags in rows
    ]
