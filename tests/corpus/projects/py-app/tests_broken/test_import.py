from inventory.core import Inventory, merge_inventories


def test_merge():
    assert merge_inventories(Inventory(), Inventory()) is not None
