from edgecases.tables import TABLE


def test_table():
    assert TABLE[3] == 9


def test_table_size():
    assert len(TABLE) == 5
