import asyncio

import pytest

from inventory import Bin, OutOfStockError, Stock, Warehouse
from inventory.warehouse import fetch_remote_count, restock_all


class TestBin:
    def test_len_counts_distinct_skus(self):
        bin_ = Bin("A-01")
        assert len(bin_) == 0
        bin_.put("BOLT-M8", 10)
        bin_.put("BOLT-M8", 5)
        bin_.put("NUT-M8", 1)
        assert len(bin_) == 2

    def test_len_ignores_skus_that_reached_zero(self):
        bin_ = Bin("A-01")
        bin_._contents.update({"A": 0, "B": 3})
        assert len(bin_) == 1

    def test_empty_bin_is_falsy(self):
        # bool() falls back to __len__, which callers rely on in "if bin_:".
        assert not Bin("A-01")

    def test_put_accumulates(self):
        bin_ = Bin("A-01")
        bin_.put("NUT-M8", 3)
        bin_.put("NUT-M8", 4)
        assert bin_.quantity("NUT-M8") == 7
        assert "NUT-M8" in bin_
        assert "BOLT-M8" not in bin_

    @pytest.mark.parametrize("qty", [0, -3])
    def test_put_rejects_non_positive(self, qty):
        with pytest.raises(ValueError):
            Bin("A-01").put("NUT-M8", qty)

    def test_take_returns_remaining(self):
        bin_ = Bin("A-01")
        bin_.put("NUT-M8", 10)
        assert bin_.take("NUT-M8", 4) == 6
        assert bin_.quantity("NUT-M8") == 6

    def test_take_last_unit_forgets_sku(self):
        bin_ = Bin("A-01")
        bin_.put("NUT-M8", 2)
        bin_.put("BOLT-M8", 1)
        assert bin_.take("NUT-M8", 2) == 0
        assert bin_.items() == [("BOLT-M8", 1)]

    def test_take_too_many(self):
        bin_ = Bin("A-01")
        bin_.put("NUT-M8", 2)
        with pytest.raises(OutOfStockError) as info:
            bin_.take("NUT-M8", 3)
        assert (info.value.sku, info.value.requested, info.value.available) == ("NUT-M8", 3, 2)
        assert bin_.quantity("NUT-M8") == 2

    @pytest.mark.parametrize("qty", [0, -1])
    def test_take_rejects_non_positive(self, qty):
        bin_ = Bin("A-01")
        bin_.put("NUT-M8", 2)
        with pytest.raises(ValueError, match="positive"):
            bin_.take("NUT-M8", qty)


def test_add_bin_names_bins_uniquely():
    wh = Warehouse("north")
    assert wh.add_bin().code == "north-bin"
    assert wh.add_bin().code == "north-bin-2"
    assert wh.add_bin("X-1").code == "X-1"
    assert sorted(wh.bins) == ["X-1", "north-bin", "north-bin-2"]


class TestReceive:
    def test_first_receipt_creates_a_bin(self):
        wh = Warehouse("north")
        assert wh.receive("NUT-M8", 5) == "north-bin"
        assert wh.total_on_hand("NUT-M8") == 5

    def test_goes_where_the_sku_already_is(self, warehouse):
        assert warehouse.receive("GLUE-50", 3) == "C-01"
        assert warehouse.bins["C-01"].quantity("GLUE-50") == 5

    def test_new_sku_goes_to_first_bin(self, warehouse):
        assert warehouse.receive("SCREW-4", 100) == "A-01"

    def test_explicit_bin_is_created(self, warehouse):
        assert warehouse.receive("SCREW-4", 100, bin_code="Z-99") == "Z-99"
        assert warehouse.locate("SCREW-4") == ["Z-99"]


@pytest.mark.parametrize(
    "sku, bins",
    [("BOLT-M8", ["A-01", "B-02"]), ("NUT-M8", ["A-01"]), ("GLUE-50", ["C-01"]), ("SCREW-4", [])],
)
def test_locate(warehouse, sku, bins):
    assert warehouse.locate(sku) == bins


@pytest.mark.parametrize("sku, total", [("BOLT-M8", 100), ("NUT-M8", 200), ("GLUE-50", 2), ("SCREW-4", 0)])
def test_total_on_hand(warehouse, sku, total):
    assert warehouse.total_on_hand(sku) == total


class TestMove:
    def test_move_to_existing_bin(self, warehouse):
        assert warehouse.move("BOLT-M8", 10, "A-01", "B-02") == (50, 50)

    def test_move_creates_target(self, warehouse):
        assert warehouse.move("GLUE-50", 2, "C-01", "C-02") == (0, 2)
        assert warehouse.locate("GLUE-50") == ["C-02"]

    def test_move_from_unknown_bin(self, warehouse):
        with pytest.raises(KeyError, match="no bin 'Q-1'"):
            warehouse.move("GLUE-50", 1, "Q-1", "C-01")

    def test_move_more_than_held(self, warehouse):
        with pytest.raises(OutOfStockError):
            warehouse.move("GLUE-50", 3, "C-01", "C-02")
        assert warehouse.total_on_hand("GLUE-50") == 2


class TestPick:
    def test_pick_from_one_bin(self, warehouse):
        assert warehouse.pick("BOLT-M8", 20) == [("A-01", 20)]
        assert warehouse.total_on_hand("BOLT-M8") == 80

    def test_pick_walks_bins_in_code_order(self, warehouse):
        assert warehouse.pick("BOLT-M8", 75) == [("A-01", 60), ("B-02", 15)]
        assert warehouse.locate("BOLT-M8") == ["B-02"]

    def test_pick_everything(self, warehouse):
        assert warehouse.pick("BOLT-M8", 100) == [("A-01", 60), ("B-02", 40)]
        assert warehouse.total_on_hand("BOLT-M8") == 0

    def test_pick_takes_nothing_when_short(self, warehouse):
        with pytest.raises(OutOfStockError) as info:
            warehouse.pick("BOLT-M8", 101)
        assert info.value.available == 100
        assert warehouse.total_on_hand("BOLT-M8") == 100

    def test_pick_unknown_sku(self, warehouse):
        with pytest.raises(OutOfStockError, match="SCREW-4: requested 1, only 0 available"):
            warehouse.pick("SCREW-4", 1)

    def test_pick_rejects_non_positive(self, warehouse):
        with pytest.raises(ValueError):
            warehouse.pick("BOLT-M8", 0)


def test_snapshot_sums_bins(warehouse):
    snap = warehouse.snapshot()
    assert list(snap) == ["BOLT-M8", "GLUE-50", "NUT-M8"]
    assert snap["BOLT-M8"] == Stock("BOLT-M8", on_hand=100)
    assert snap["GLUE-50"].available == 2


def test_snapshot_is_detached(warehouse):
    warehouse.snapshot()["GLUE-50"].reserve(2)
    assert warehouse.snapshot()["GLUE-50"].reserved == 0


def test_snapshot_of_empty_warehouse():
    assert Warehouse("empty").snapshot() == {}


class TestFetchRemoteCount:
    def test_plain_answer(self):
        assert fetch_remote_count(lambda sku: "17", "NUT-M8") == 17

    def test_retries_connection_errors(self):
        answers = [ConnectionError("reset"), TimeoutError("slow"), 5]

        def source(sku):
            answer = answers.pop(0)
            if isinstance(answer, Exception):
                raise answer
            return answer

        assert fetch_remote_count(source, "NUT-M8") == 5
        assert answers == []

    def test_gives_up_after_three_attempts(self):
        calls = []

        def source(sku):
            calls.append(sku)
            raise ConnectionError("down")

        with pytest.raises(ConnectionError):
            fetch_remote_count(source, "NUT-M8")
        assert calls == ["NUT-M8"] * 3

    @pytest.mark.parametrize("answer", [-1, "many"])
    def test_rejects_bad_counts_without_retrying(self, answer):
        calls = []

        def source(sku):
            calls.append(sku)
            return answer

        with pytest.raises(ValueError):
            fetch_remote_count(source, "NUT-M8")
        assert len(calls) == 1

    def test_keeps_its_name(self):
        assert fetch_remote_count.__name__ == "fetch_remote_count"


class TestRestockAll:
    @staticmethod
    def make_supplier(stock, log):
        async def supplier(sku):
            log.append(sku)
            await asyncio.sleep(0)
            return stock.get(sku, 0)

        return supplier

    def test_receives_what_the_supplier_delivers(self, warehouse):
        log = []
        supplier = self.make_supplier({"GLUE-50": 10, "SCREW-4": 500}, log)
        received = asyncio.run(restock_all(warehouse, supplier, ["GLUE-50", "SCREW-4", "NUT-M8"], batch_size=2))
        assert received == {"GLUE-50": 10, "SCREW-4": 500}
        assert log == ["GLUE-50", "SCREW-4", "NUT-M8"]
        assert warehouse.total_on_hand("GLUE-50") == 12
        assert warehouse.locate("SCREW-4") == ["A-01"]

    def test_repeated_sku_accumulates(self):
        wh = Warehouse("w")
        supplier = self.make_supplier({"NUT-M8": 3}, [])
        assert asyncio.run(restock_all(wh, supplier, ["NUT-M8", "NUT-M8"], batch_size=1)) == {"NUT-M8": 6}
        assert wh.total_on_hand("NUT-M8") == 6

    def test_nothing_to_do(self):
        wh = Warehouse("w")
        assert asyncio.run(restock_all(wh, self.make_supplier({}, []), [])) == {}
        assert wh.bins == {}
