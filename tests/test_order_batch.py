"""A kind's orders as columns (OrderBatch): each order resolved exactly once, as columns or as
objects alike; the GM orders tab's after the Orders tab's; the long way's orders put among the
short way's by their place in the posting order."""

from __future__ import annotations

import pytest

from sheetmaster.engine.order_rows import in_posting_order
from sheetmaster.kit.model import Status
from sheetmaster.kit.order_batch import OrderBatch


def claims() -> OrderBatch:
    return OrderBatch("claim", [2, 4, 7], [0, 2, 5], ["Avalon", "Bretagne", "Avalon"],
                      {"territory": ["Sarum", "Ys", "Camelot"]})


def test_pending_gives_each_unresolved_order_with_its_columns():
    batch = claims()
    assert list(batch.pending("territory")) == [(0, "Avalon", "Sarum"), (1, "Bretagne", "Ys"),
                                                (2, "Avalon", "Camelot")]
    batch.resolve(1, Status.APPLIED, "paid 0 gold")
    assert list(batch.pending()) == [(0, "Avalon"), (2, "Avalon")]


def test_pending_is_the_orders_unresolved_when_asked():
    batch = claims()
    batch.resolve(0, Status.APPLIED)
    seen = []
    for i, _ in batch.pending():
        seen.append(i)
        if i == 1:
            batch.resolve(2, Status.REJECTED, "resolved meanwhile")
    assert seen == [1, 2]


def test_an_order_is_resolved_once():
    batch = claims()
    batch.resolve(0, Status.APPLIED)
    with pytest.raises(RuntimeError, match="order row 2 was resolved twice"):
        batch.resolve(0, Status.REJECTED, "again")


def test_objects_and_columns_share_the_outcomes():
    batch = claims()
    orders = batch.orders()
    assert [(o.row, o.seq, o.player, o.kind, o.fields, o.from_gm) for o in orders] == [
        (2, 0, "Avalon", "claim", {"territory": "Sarum"}, False),
        (4, 2, "Bretagne", "claim", {"territory": "Ys"}, False),
        (7, 5, "Avalon", "claim", {"territory": "Camelot"}, False)]
    assert batch.orders() is orders  # made once
    orders[1].batch.resolve(orders[1].index, Status.REJECTED, "no")
    assert batch.result(1).reason == "no" and batch.result(0) is None
    assert batch.pending_orders() == [orders[0], orders[2]]
    with pytest.raises(RuntimeError, match="2 'claim' orders are unresolved"):
        batch.results()
    batch.resolve_each([0, 2], Status.APPLIED, "ok")
    assert [(r.row, r.player, r.kind, r.status, r.reason, r.secret)
            for r in batch.results(secret=True)] == [
        (2, "Avalon", "claim", Status.APPLIED, "ok", True),
        (4, "Bretagne", "claim", Status.REJECTED, "no", True),
        (7, "Avalon", "claim", Status.APPLIED, "ok", True)]


def test_the_gm_orders_come_after_with_negative_rows():
    batch, gm = claims(), OrderBatch("claim", [2], [0], ["Avalon"], {"territory": ["Ys"]})
    batch.extend(gm, rows_sign=-1, seq_offset=6)
    assert batch.rows == [2, 4, 7, -2] and batch.seqs == [0, 2, 5, 6]
    assert [o.from_gm for o in batch.orders()] == [False, False, False, True]
    batch.resolve(3, Status.REJECTED, "no")
    with pytest.raises(RuntimeError, match="order row 2 was resolved twice"):
        batch.resolve(3, Status.REJECTED, "again")


def test_orders_read_the_long_way_go_among_the_others_by_seq():
    batch = claims()
    batch.extend(OrderBatch("claim", [3, 9], [1, 6], ["Cornwall", "Avalon"],
                            {"territory": ["Mercia", "Logres"]}))
    merged = in_posting_order(batch)
    assert merged.rows == [2, 3, 4, 7, 9] and merged.seqs == [0, 1, 2, 5, 6]
    assert merged.fields["territory"] == ["Sarum", "Mercia", "Ys", "Camelot", "Logres"]
    assert in_posting_order(claims()).rows == [2, 4, 7]


def test_letting_go_of_the_objects_leaves_the_outcomes():
    batch = claims()
    first = batch.orders()
    batch.resolve(0, Status.APPLIED)
    batch.let_go()
    assert batch.orders() is not first and batch.status[0] is Status.APPLIED
