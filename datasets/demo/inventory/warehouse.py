"""Bins, warehouses and stock movements.

This module keeps the tab indentation of the warehouse service it was
ported from; ``.gitattributes`` marks it ``-text`` so that no checkout
rewrites it.
"""

import asyncio

import inventory.util as u

from .errors import OutOfStockError as StockError
from .models import Stock


class Bin:
	"""One storage location holding quantities of several SKUs."""

	def __init__(self, code):
		self.code = code
		self._contents = {}

	def __len__(self):
		"""Return the number of distinct SKUs stored in the bin.

		This is what a stock-taker counts first: how many different
		products to look for, not how many units. SKUs whose quantity
		dropped to zero are not counted.

		Returns
		-------
		int
			Number of SKUs with at least one unit.

		Examples
		--------
		>>> b = Bin("A-01")
		>>> b.put("BOLT-M8", 10)
		>>> len(b)
		1
		"""
		return sum(1 for qty in self._contents.values() if qty > 0)

	def __contains__(self, sku):
		return self._contents.get(sku, 0) > 0

	def items(self):
		return sorted(self._contents.items())

	def quantity(self, sku):
		"""Units of ``sku`` in this bin, 0 when the bin has none."""
		return self._contents.get(sku, 0)

	def put(self, sku, qty):
		"""Store ``qty`` more units of ``sku`` in this bin."""
		if qty <= 0:
			raise ValueError(f"can only put a positive quantity, got {qty}")
		self._contents[sku] = self._contents.get(sku, 0) + qty

	def take(self, sku, qty):
		"""Remove ``qty`` units of ``sku`` from this bin.

		When the last unit of a SKU leaves the bin the SKU is forgotten, so
		that ``len()`` and :meth:`items` only report what is really there.

		Parameters
		----------
		sku : str
			The SKU to take.
		qty : int
			Units to take, at least 1.

		Returns
		-------
		int
			Units of ``sku`` left in the bin.

		Raises
		------
		ValueError
			If ``qty`` is not positive.
		OutOfStockError
			If the bin holds fewer than ``qty`` units.
		"""
		if qty <= 0:
			raise ValueError(f"can only take a positive quantity, got {qty}")
		held = self._contents.get(sku, 0)
		if qty > held:
			raise StockError(sku, qty, held)
		remaining = held - qty
		if remaining:
			self._contents[sku] = remaining
		else:
			del self._contents[sku]
		return remaining


class Warehouse:
	"""A named set of bins, addressed by bin code."""

	def __init__(self, name):
		self.name = name
		self.bins = {}

	def add_bin(self, code=None):
		"""Create a bin, naming it after the warehouse when no code is given."""
		code = u.unique_name(code or f"{self.name}-bin", self.bins)
		self.bins[code] = Bin(code)
		return self.bins[code]

	def receive(self, sku, qty, bin_code=None):
		"""Put incoming units away and return the code of the bin used.

		Without an explicit bin, units go where the SKU already lies (the
		first such bin by code) so that a SKU is not scattered over the
		building; a SKU seen for the first time goes into the first bin,
		and into a new bin when the warehouse has none yet.

		Parameters
		----------
		sku : str
			The SKU received.
		qty : int
			Units received, at least 1.
		bin_code : str, optional
			Bin to use; it is created when it does not exist.

		Returns
		-------
		str
			The code of the bin the units went into.
		"""
		if bin_code is None:
			holding = self.locate(sku)
			if holding:
				bin_code = holding[0]
			elif self.bins:
				bin_code = min(self.bins)
			else:
				bin_code = self.add_bin().code
		elif bin_code not in self.bins:
			self.add_bin(bin_code)
		self.bins[bin_code].put(sku, qty)
		return bin_code

	def locate(self, sku):
		"""Return the codes of the bins that hold at least one unit of ``sku``.

		Codes are sorted, which for the usual aisle-rack-shelf codes is the
		order a picker walks the building in.

		Parameters
		----------
		sku : str
			The SKU to look for.

		Returns
		-------
		list of str
			Sorted bin codes; empty when the SKU is not in stock.

		Examples
		--------
		>>> w = Warehouse("main")
		>>> w.locate("BOLT-M8")
		[]
		"""
		return sorted(code for code, bin_ in self.bins.items() if sku in bin_)

	def total_on_hand(self, sku):
		"""Units of ``sku`` over all bins."""
		return sum(bin_.quantity(sku) for bin_ in self.bins.values())

	def move(self, sku, qty, source, target):
		"""Move units of a SKU from one bin to another.

		The target bin is created when needed, so relabelling is one move.

		Parameters
		----------
		sku : str
			The SKU to move.
		qty : int
			Units to move.
		source : str
			Code of the bin to take from; it must exist.
		target : str
			Code of the bin to put into.

		Returns
		-------
		tuple of (int, int)
			Units of ``sku`` left in ``source`` and now in ``target``.

		Raises
		------
		KeyError
			If ``source`` is not a bin of this warehouse.
		"""
		if source not in self.bins:
			raise KeyError(f"no bin {source!r} in warehouse {self.name!r}")
		left = self.bins[source].take(sku, qty)
		self.receive(sku, qty, bin_code=target)
		return left, self.bins[target].quantity(sku)

	def pick(self, sku, qty):
		"""Take ``qty`` units of ``sku`` out of the warehouse for an order.

		Bins are emptied in code order so that a picker walks the aisles
		once. Nothing is taken unless the whole quantity is available: a
		half-picked line is worse than a line that waits.

		Parameters
		----------
		sku : str
			The SKU to pick.
		qty : int
			Units to pick, at least 1.

		Returns
		-------
		list of (str, int)
			``(bin code, units taken)`` in the order they were taken.

		Raises
		------
		ValueError
			If ``qty`` is not positive.
		OutOfStockError
			If the warehouse holds fewer than ``qty`` units.
		"""
		if qty <= 0:
			raise ValueError(f"can only pick a positive quantity, got {qty}")
		available = self.total_on_hand(sku)
		if available < qty:
			raise StockError(sku, qty, available)
		picks = []
		remaining = qty
		for code in self.locate(sku):
			bin_ = self.bins[code]
			taken = min(remaining, bin_.quantity(sku))
			bin_.take(sku, taken)
			picks.append((code, taken))
			remaining -= taken
			if remaining == 0:
				break
		else:
			# Only reachable if bins changed under us between the
			# availability check and the walk; report what was short.
			raise StockError(sku, qty, qty - remaining)
		# Callers book the picked units against the order line; a mismatch
		# here would silently lose stock, so fail loudly instead.
		assert sum(taken for _, taken in picks) == qty, picks
		return picks

	def snapshot(self):
		"""Return the stock level of every SKU in the warehouse.

		The snapshot is detached from the bins: reserving units on a
		returned :class:`Stock` does not change the warehouse, which is what
		an order-promising step working on a copy needs.

		Returns
		-------
		dict of str to Stock
			One record per SKU with at least one unit, sorted by SKU, with
			nothing reserved.

		Examples
		--------
		>>> w = Warehouse("main")
		>>> w.snapshot()
		{}
		"""
		totals = {}
		for bin_ in self.bins.values():
			for sku, qty in bin_.items():
				totals[sku] = totals.get(sku, 0) + qty
		return {sku: Stock(sku, on_hand=qty) for sku, qty in sorted(totals.items())}


@u.retry(times=3, exceptions=(ConnectionError, TimeoutError))
def fetch_remote_count(source, sku):
	"""Ask a remote stock source how many units of ``sku`` it holds.

	Sources are callables (a supplier API client, a scanner bridge) that
	may fail transiently; connection errors and timeouts are retried by
	the decorator, up to three attempts in total.

	Parameters
	----------
	source : callable
		Called as ``source(sku)``; returns a count as int or str.
	sku : str
		The SKU to ask about.

	Returns
	-------
	int
		The count, never negative.

	Raises
	------
	ValueError
		If the source answers with a negative or non-numeric count.
	"""
	count = int(source(sku))
	if count < 0:
		raise ValueError(f"source reported a negative count for {sku}: {count}")
	return count


async def restock_all(warehouse, supplier, skus, batch_size=5):
	"""Order stock for several SKUs from an async supplier and put it away.

	Requests go out in batches of ``batch_size`` concurrent calls, which
	keeps us under the supplier's rate limit while still overlapping the
	waits within a batch.

	Parameters
	----------
	warehouse : Warehouse
		Where delivered units are received.
	supplier : coroutine function
		Called as ``await supplier(sku)``; returns the units delivered.
	skus : iterable of str
		SKUs to restock, in the order the requests should be sent.
	batch_size : int, optional
		Concurrent requests per batch, by default 5.

	Returns
	-------
	dict of str to int
		Units received per SKU; SKUs the supplier could not deliver are
		left out.
	"""
	received = {}
	for batch in u.chunked(skus, batch_size):
		# gather() returns results in argument order, so they line up with
		# the batch even when the calls finish out of order.
		quantities = await asyncio.gather(*(supplier(sku) for sku in batch))
		for sku, qty in zip(batch, quantities):
			if qty:
				warehouse.receive(sku, qty)
				received[sku] = received.get(sku, 0) + qty
	return received
