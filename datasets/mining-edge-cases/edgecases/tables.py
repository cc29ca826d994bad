"""A table built when the module is imported: mutating its builder breaks the import."""


def build_table():
    """The squares of 0..4."""
    return {number: number * number for number in range(5)}


TABLE = build_table()
